// G7 (QUALITY.md): a 1 GiB upload through the tus API (/api/uploads) of a running app.
//   - parts: every PATCH carries one R2 part; all parts but the last have the same size, < 95 MB
//   - memory: growth of the app's isolate (V8 heap in use + ArrayBuffer backing stores, read
//     through workerd's inspector every 50 ms: what the 128 MB isolate limit counts), peak during
//     the upload − before; the workerd process's RSS (VmRSS/VmHWM from /proc) is reported too,
//     beside what the discard-only route alone makes it grow (the local R2 simulator and the
//     runtime's own buffers live in that process)
//   - throughput: the same bytes, in the same chunks, first sent to PUT /api/dev/bench/discard (a
//     route that reads and drops the body), then uploaded; ratio of the two rates ≥ 50 %
//   - oversize: a PATCH whose Content-Length exceeds what remains is refused (413) while the
//     client is still sending, i.e. before the body is read
// The 1 GiB is generated chunk by chunk (deterministic bytes); at most one chunk is in memory.
import { readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createMember, signIn } from "./session.mjs";

const MiB = 1024 * 1024;
const TOTAL = 1024 * MiB;
const MAX_PART = 95 * 1000 * 1000;
const MEMORY_BUDGET = 64 * MiB;

/** Mirrors partSizeFor in app/features/files/files.constants.ts (the server also tells it). */
function partSizeFor(length) {
  const rounded = Math.ceil(Math.ceil(length / 10_000) / MiB) * MiB;
  return Math.min(90 * MiB, Math.max(8 * MiB, rounded));
}

/** Deterministic, incompressible-looking bytes for chunk `index` (xorshift32 per 4 bytes). */
function chunkBytes(index, size) {
  const buffer = Buffer.allocUnsafe(size);
  let state = (index + 1) * 2654435761 >>> 0 || 1;
  for (let offset = 0; offset + 4 <= size; offset += 4) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    buffer.writeUInt32LE(state, offset);
  }
  for (let offset = size - (size % 4); offset < size; offset++) buffer[offset] = index & 0xff;
  return buffer;
}

// ---- the workerd process behind baseUrl (Linux /proc) ------------------------------------------

function listeningInodes(port) {
  const inodes = new Set();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, localPort] = fields[1].split(":");
      if (localPort === hexPort && fields[3] === "0A") inodes.add(fields[9]);
    }
  }
  return inodes;
}

function processes() {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return { pid: Number(pid), ppid, comm };
      } catch {
        return null;
      }
    })
    .filter(Boolean);
}

/** The workerd serving `baseUrl`: the process listening on its port, or a workerd below it. */
export function findWorkerdPid(baseUrl) {
  const port = Number(new URL(baseUrl).port || 80);
  const inodes = listeningInodes(port);
  const all = processes();
  let listener = null;
  for (const proc of all) {
    try {
      for (const fd of readdirSync(`/proc/${proc.pid}/fd`)) {
        const target = readlinkSync(`/proc/${proc.pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match && inodes.has(match[1])) listener = proc;
      }
    } catch {
      // not ours to read, or gone
    }
    if (listener) break;
  }
  if (!listener) return null;
  if (listener.comm === "workerd") return listener.pid;
  const queue = [listener.pid];
  while (queue.length) {
    const parent = queue.shift();
    for (const child of all.filter((proc) => proc.ppid === parent)) {
      if (child.comm === "workerd") return child.pid;
      queue.push(child.pid);
    }
  }
  return null;
}

function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Resets the peak-RSS counter (VmHWM) of a process; false where not allowed. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** The TCP ports a process listens on. */
function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && fields[3] === "0A" && inodes.has(fields[9])) ports.push(parseInt(fields[1].split(":")[1], 16));
    }
  }
  return ports;
}

/** One inspector session: `call(method)` answers the result, or null after a timeout. */
async function openInspectorSession(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  // Node's WebSocket does not keep the process alive: the timeout timer does, while an answer is awaited.
  const call = (method, timeoutMs = 5_000) =>
    new Promise((resolve) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve(null);
      }, timeoutMs);
      pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message.result ?? {});
      });
      socket.send(JSON.stringify({ id, method }));
    });
  return { call, close: () => socket.close() };
}

/**
 * A connection to the inspector of the app's isolate (vite preview starts workerd with one), or
 * null. `heap()` answers the isolate's memory in bytes: V8 heap in use + ArrayBuffer backing
 * stores. The first session after workerd starts may stop answering after one message, so a
 * session is only kept once it has answered twice.
 */
export async function connectIsolate(pid) {
  if (typeof WebSocket !== "function") return null;
  let target = null;
  for (const port of listeningPorts(pid)) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(1000) });
      const targets = await response.json();
      target = Array.isArray(targets) ? targets.find((entry) => /^core:user:/.test(entry.id ?? "")) : null;
    } catch {
      continue;
    }
    if (target) break;
  }
  if (!target) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const session = await openInspectorSession(target.webSocketDebuggerUrl).catch(() => null);
    if (!session) continue;
    const first = await session.call("Runtime.getHeapUsage", 2_000);
    const second = first ? await session.call("Runtime.getHeapUsage", 2_000) : null;
    if (!second) {
      session.close();
      continue;
    }
    const heap = async () => {
      const usage = await session.call("Runtime.getHeapUsage");
      return usage && typeof usage.usedSize === "number" ? usage.usedSize + (usage.backingStorageSize ?? 0) : null;
    };
    /** A full GC; workerd runs it on the isolate's next event, so a cheap request nudges it. */
    const collectGarbage = async (nudge) => {
      const done = session.call("HeapProfiler.collectGarbage", 15_000);
      let settled = false;
      void done.then(() => (settled = true));
      for (let round = 0; round < 20 && !settled; round++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!settled) await nudge().catch(() => undefined);
      }
      return done;
    };
    return { heap, collectGarbage, close: session.close };
  }
  return null;
}

// ---- HTTP -------------------------------------------------------------------------------------

/** One request with a Buffer body; resolves with status, headers, body and the time taken. */
function send(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const started = performance.now();
    const request = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers: { ...headers, "Content-Length": String(body?.length ?? 0) } },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }),
        );
      },
    );
    request.on("error", reject);
    request.end(body ?? undefined);
  });
}

/**
 * A PATCH that announces `declared` bytes and trickles them out; returns how many bytes had been
 * written when the answer arrived (the server must answer before reading them all).
 */
function oversizePatch(url, headers, declared) {
  return new Promise((resolve) => {
    const target = new URL(url);
    let sent = 0;
    let answered = null;
    const request = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "PATCH", headers: { ...headers, "Content-Length": String(declared) } },
      (response) => {
        answered = { status: response.statusCode, sentBeforeAnswer: sent };
        response.resume();
        response.on("end", () => {
          request.destroy();
          resolve(answered);
        });
      },
    );
    request.on("error", () => resolve(answered ?? { status: 0, sentBeforeAnswer: sent }));
    const chunk = Buffer.alloc(MiB, 7);
    const pump = () => {
      if (answered) return;
      if (sent >= declared) {
        request.end();
        return;
      }
      sent += chunk.length;
      request.write(chunk);
      setTimeout(pump, 25);
    };
    pump();
  });
}

const b64 = (value) => Buffer.from(value, "utf8").toString("base64");
const fmt = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

export async function bench({ baseUrl, stateDir, add }) {
  const email = `g7-${Date.now()}@bench.local`;
  const password = "g7 upload bench password";
  await createMember(stateDir, { email, password, tier: "custom" });
  const session = await signIn(baseUrl, { email, password });
  const tus = (extra = {}) => session.headers({ "Tus-Resumable": "1.0.0", ...extra });
  const folders = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: session.headers({ Accept: "application/json" }) })).json();
  const folderId = folders.folders[0].uid;

  // --- creation ---
  const created = await send(`${baseUrl}/api/uploads`, {
    method: "POST",
    headers: tus({ "Upload-Length": String(TOTAL), "Upload-Metadata": `filename ${b64("g7-1GiB.bin")},folderId ${b64(folderId)}` }),
  });
  if (created.status !== 201) throw new Error(`G7: creating the upload failed with ${created.status}: ${created.body}`);
  const location = `${baseUrl}${created.headers.location}`;
  const partSize = Number(created.headers["strongroom-part-size"] ?? partSizeFor(TOTAL));

  // --- the baseline: a Worker that only reads the body, same chunks ---
  let discardMs = 0;
  for (let index = 0, sent = 0; sent < TOTAL; index++) {
    const size = Math.min(partSize, TOTAL - sent);
    const discard = await send(`${baseUrl}/api/dev/bench/discard`, { method: "PUT", headers: session.headers({ "Content-Type": "application/octet-stream" }), body: chunkBytes(index, size) });
    if (discard.status !== 200) throw new Error(`G7: the discard baseline answered ${discard.status}: ${discard.body}`);
    discardMs += discard.ms;
    sent += size;
  }

  // --- for the reading of the ratio: the same chunks written to R2 by a bare route (no checks, no D1) ---
  let r2PutMs = 0;
  for (let index = 0, sent = 0; sent < TOTAL; index++) {
    const size = Math.min(partSize, TOTAL - sent);
    const put = await send(`${baseUrl}/api/dev/bench/r2-put`, { method: "PUT", headers: session.headers({ "Content-Type": "application/octet-stream" }), body: chunkBytes(index, size) });
    if (put.status !== 200) throw new Error(`G7: the bare R2 write answered ${put.status}: ${put.body}`);
    r2PutMs += put.ms;
    sent += size;
  }

  // --- the upload, one part per PATCH, memory sampled every 50 ms ---
  const pid = findWorkerdPid(baseUrl);
  const isolate = pid ? await connectIsolate(pid).catch(() => null) : null;
  // Start from a collected heap, so the baseline's garbage does not count as the upload's.
  await isolate?.collectGarbage(() => fetch(`${baseUrl}/api/health`));
  const heapBefore = isolate ? await isolate.heap() : null;
  let heapPeak = heapBefore ?? 0;
  const rssBefore = pid ? memoryOf(pid).rss : null;
  const peakReset = pid ? resetPeak(pid) : false;
  let rssPeak = rssBefore ?? 0;
  let sampling = false;
  const sampler = setInterval(async () => {
    if (sampling) return;
    sampling = true;
    try {
      if (pid) rssPeak = Math.max(rssPeak, memoryOf(pid).rss);
      const heap = isolate ? await isolate.heap() : null;
      if (heap !== null) heapPeak = Math.max(heapPeak, heap);
    } catch {
      // the process went away; reported below
    } finally {
      sampling = false;
    }
  }, 50);

  let uploadMs = 0;
  let offset = 0;
  const advances = [];
  let fileId = null;
  for (let index = 0; offset < TOTAL; index++) {
    const size = Math.min(partSize, TOTAL - offset);
    const patched = await send(location, {
      method: "PATCH",
      headers: tus({ "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }),
      body: chunkBytes(index, size),
    });
    if (patched.status !== 204) throw new Error(`G7: PATCH at ${offset} answered ${patched.status}: ${patched.body}`);
    uploadMs += patched.ms;
    const next = Number(patched.headers["upload-offset"]);
    advances.push(next - offset);
    offset = next;
    fileId = patched.headers["strongroom-file-id"] ?? fileId;
  }
  clearInterval(sampler);
  const rssAfter = pid ? memoryOf(pid) : null;
  isolate?.close();

  const parts = advances.length;
  const equal = advances.slice(0, -1).every((size) => size === partSize) && advances.at(-1) <= partSize;
  add("G7 1 GiB upload: parts", "parts × size (all but the last equal)", `${parts} × ${fmt(partSize)}${equal ? ", equal" : ", NOT equal"}`, "equal, < 95 MB", equal && partSize < MAX_PART && Boolean(fileId));

  if (heapBefore !== null) {
    const growth = Math.max(0, heapPeak - heapBefore);
    add("G7 1 GiB upload: Worker memory", "isolate heap + buffers, peak − before", `${fmt(growth)} (${fmt(heapBefore)} → peak ${fmt(heapPeak)})`, "≤ 64 MiB", growth <= MEMORY_BUDGET);
  } else {
    add("G7 1 GiB upload: Worker memory", "isolate heap + buffers, peak − before", "the isolate's inspector did not answer", "≤ 64 MiB", false);
  }
  if (rssBefore !== null && rssAfter) {
    const peak = peakReset ? Math.max(rssAfter.hwm, rssPeak) : rssPeak;
    add(
      "G7 1 GiB upload: workerd process",
      "RSS peak − before (info)",
      `${fmt(Math.max(0, peak - rssBefore))} (${fmt(rssBefore)} → ${fmt(peak)}); runtime buffers + local R2 simulator`,
      "information",
      true,
    );
  }

  const ratio = discardMs / uploadMs;
  add(
    "G7 1 GiB upload: throughput",
    "upload ÷ discard-only Worker",
    `${(ratio * 100).toFixed(0)} % (${((TOTAL / MiB) / (uploadMs / 1000)).toFixed(0)} vs ${((TOTAL / MiB) / (discardMs / 1000)).toFixed(0)} MiB/s)`,
    "≥ 50 %",
    ratio >= 0.5,
  );

  add(
    "G7 1 GiB upload: vs bare R2 write",
    "upload ÷ a route that only writes to R2 (info)",
    `${((r2PutMs / uploadMs) * 100).toFixed(0)} % (bare R2 write ${((TOTAL / MiB) / (r2PutMs / 1000)).toFixed(0)} MiB/s)`,
    "information",
    true,
  );

  // --- an oversize body is refused before it is read ---
  const small = await send(`${baseUrl}/api/uploads`, {
    method: "POST",
    headers: tus({ "Upload-Length": String(16 * MiB), "Upload-Metadata": `filename ${b64("g7-oversize.bin")},folderId ${b64(folderId)}` }),
  });
  if (small.status !== 201) throw new Error(`G7: creating the oversize probe failed with ${small.status}: ${small.body}`);
  const declared = 96 * MiB;
  const refused = await oversizePatch(`${baseUrl}${small.headers.location}`, tus({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }), declared);
  await send(`${baseUrl}${small.headers.location}`, { method: "DELETE", headers: tus() });
  add(
    "G7 oversize body",
    "status; bytes sent before the answer",
    `${refused.status}; ${fmt(refused.sentBeforeAnswer)} of ${fmt(declared)}`,
    "413 before the body is read",
    refused.status === 413 && refused.sentBeforeAnswer < declared / 4,
  );
}

// Run on its own: node scripts/bench/g7-upload.mjs http://localhost:4311 /tmp/state-h1
if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = "http://localhost:8787", stateDir = ".bench/state"] = process.argv.slice(2);
  const rows = [];
  await bench({ baseUrl, stateDir, add: (item, measure, valueText, budgetText, ok) => rows.push({ item, measure, value: valueText, budget: budgetText, ok }) });
  console.table(rows);
}
