import { DurableObject } from "cloudflare:workers";

export type AttemptWindow = { limit: number; windowMs: number };
export type AttemptStatus = { allowed: boolean; remaining: number; retryAfterSeconds: number };

/**
 * Strict attempt counters (S11): one object per key (an account, an IP address, a link), so
 * every attempt on that key is counted in one place, in order. The approximate rate-limit
 * binding is not used for these. The object keeps a sliding window of attempt times in its
 * storage; it sets no timers, so it hibernates as soon as it is idle.
 */
export class AttemptLimiter extends DurableObject<Env> {
  private times: number[] | undefined;

  private async load(now: number, windowMs: number): Promise<number[]> {
    this.times ??= (await this.ctx.storage.get<number[]>("times")) ?? [];
    this.times = this.times.filter((time) => now - time < windowMs);
    return this.times;
  }

  private status(times: number[], window: AttemptWindow, now: number): AttemptStatus {
    const allowed = times.length < window.limit;
    const oldest = times[times.length - window.limit] ?? times[0] ?? now;
    const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((oldest + window.windowMs - now) / 1000));
    return { allowed, remaining: Math.max(0, window.limit - times.length), retryAfterSeconds };
  }

  /** Whether another attempt may be made now (does not count one). */
  async check(window: AttemptWindow, now = Date.now()): Promise<AttemptStatus> {
    return this.status(await this.load(now, window.windowMs), window, now);
  }

  /** Counts one attempt (a failure, or a request where every request counts) and reports the result. */
  async record(window: AttemptWindow, now = Date.now()): Promise<AttemptStatus> {
    const times = await this.load(now, window.windowMs);
    times.push(now);
    await this.ctx.storage.put("times", times.slice(-Math.max(window.limit * 2, 50)));
    return this.status(times, window, now);
  }

  /** Counts one attempt only if the window has room: the atomic "consume" for requests that always count. */
  async consume(window: AttemptWindow, now = Date.now()): Promise<AttemptStatus> {
    const times = await this.load(now, window.windowMs);
    const before = this.status(times, window, now);
    if (!before.allowed) return before;
    // This attempt fitted in the window; the status tells how many are left after it.
    return { ...(await this.record(window, now)), allowed: true };
  }

  /** A success clears the key (a member who finally types the right password starts afresh). */
  async reset(): Promise<void> {
    this.times = [];
    await this.ctx.storage.deleteAll();
  }
}
