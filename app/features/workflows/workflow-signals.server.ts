import type { ServiceContext } from "~/lib/service-context.server";
import { ENVELOPE_EVENT } from "./workflows.schema";
import { findLinkByRef } from "./workflows.queries.server";

/**
 * Other modules tell waiting runs that something they wait on ended (issue 41). The e-signature
 * module calls this when an envelope is completed, declined, voided or expired: the run whose sign
 * step sent it is woken to read the outcome. Never fails what already happened (logged instead);
 * an envelope no workflow sent costs one indexed read.
 */
export async function signalEnvelopeFinished(ctx: ServiceContext, envelopeId: string): Promise<void> {
  try {
    const link = await findLinkByRef(ctx.db, "envelope", envelopeId);
    if (!link) return;
    await (await ctx.env.WORKFLOW_RUNS.get(link.runId)).sendEvent({ type: ENVELOPE_EVENT, payload: { envelopeId } });
  } catch (error) {
    ctx.logger.warn("workflows.envelope_signal_failed", { envelopeId, error: error instanceof Error ? error.message : String(error) });
  }
}
