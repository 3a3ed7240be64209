// The shared part of the bench's Node measurements (seal-measure.ts, redact-measure.ts): one
// warm-up run, then three timed runs while heap and RSS growth are sampled every 2 ms.
export async function measureRuns(once: () => Promise<number>): Promise<{ outputBytes: number; medianMs: number; peakHeapBytes: number; peakRssBytes: number }> {
  await once(); // warm-up (the libraries' first use)
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakHeap = 0;
  let peakRss = 0;
  const sample = () => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed - base.heapUsed);
    peakRss = Math.max(peakRss, now.rss - base.rss);
  };
  const sampler = setInterval(sample, 2);
  const times: number[] = [];
  let outputBytes = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    outputBytes = await once();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clearInterval(sampler);
  sample();
  times.sort((a, b) => a - b);
  return { outputBytes, medianMs: times[1]!, peakHeapBytes: peakHeap, peakRssBytes: peakRss };
}
