import type { RedactionEngineInput, RedactionEngineResult } from "./redaction-types";

/** The redaction engine's RPC surface (workers/redactor/index.ts), as the app calls it. */
export type RedactionEngine = { redact(input: RedactionEngineInput): Promise<RedactionEngineResult> };

/**
 * The engine behind the service binding REDACTOR (ADR 032). `wrangler types` sees a binding to
 * another Worker's entrypoint as a plain `Service`; its methods are declared here once.
 */
export function redactionEngine(env: Env): RedactionEngine {
  return env.REDACTOR as unknown as RedactionEngine;
}
