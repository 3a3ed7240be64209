/**
 * Structured logs: one JSON object per line, always with the request id when there is one.
 * Never pass secrets, tokens, cookies or full URLs with query strings in `fields`.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type Logger = {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({ level, message, ...base, ...fields, time: new Date().toISOString() });
    if (level === "error") console.error(line);
    else if (level === "warn") console.warn(line);
    else console.log(line);
  };
  return {
    log,
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}

/** Describes an unknown thrown value for a log line without leaking it to a response. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { errorName: error.name, errorMessage: error.message, stack: error.stack };
  return { errorMessage: String(error) };
}
