import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createServiceContext } from "~/lib/service-context.server";
import { DECISION_EVENT, ENVELOPE_EVENT, FORM_EVENT, slotOf } from "./workflows.schema";
import { askForForm, callWebhook, copyDocuments, escalateFormStep, fileIntoCase, formAnswered, moveSubject, emailAbout, setDocumentMetadata, shareDocument, tagDocuments } from "./workflow-actions.server";
import { escalateSignStep, escalateStep, sendBack, skipStep, finishRun, notifyAssignees, runPlan, sendForSignature, signatureOutcome, startStep, tallyApproval } from "./workflow-engine.server";

/**
 * The engine (issue 41, ADR 035): one Cloudflare Workflows instance per run, its id the run's.
 * Every effect is a `step.do` (retried, its result kept, so a replay after a restart does not do
 * it again); people are waited for with `step.waitForEvent` (a decision on a task sends
 * `task-decided`). Code outside the steps runs again on every replay: it only decides what comes next.
 */
export type RunParams = { runId: string };
/** How long a human step waits for a decision (after its escalation, or without a due time) before the run fails. */
export const DECISION_TIMEOUT = "365 days";
/** A webhook step's attempts after the first, and their backoff (1, 2, 4, 8 minutes). */
export const WEBHOOK_RETRIES = { limit: 4, delay: "1 minute", backoff: "exponential" } as const;

/**
 * A human step waits for people (an approval's decisions, a form's answer): the outcome is checked
 * first and after each event. Until the step is due, the wait ends at its due time and the step's
 * escalation happens once; after it, only the event (or a year) ends the wait.
 */
async function waitForPeople<O extends string>(
  step: WorkflowStep,
  dueAt: number | null,
  how: { wait: (round: number) => [name: string, type: string]; check: (round: number) => Promise<O>; escalate: () => Promise<O> },
): Promise<O> {
  let outcome = await how.check(0);
  let isEscalated = false;
  for (let round = 1; outcome === "pending"; round += 1) {
    const isDue = dueAt !== null && !isEscalated;
    const [name, type] = how.wait(round);
    try {
      await step.waitForEvent(name, { type, timeout: isDue ? Math.max(1_000, dueAt - Date.now()) : DECISION_TIMEOUT });
    } catch (error) {
      if (!isDue) throw error;
      isEscalated = true;
      outcome = await how.escalate();
      continue;
    }
    outcome = await how.check(round);
  }
  return outcome;
}

export class WorkflowRunner extends WorkflowEntrypoint<Env, RunParams> {
  override async run(event: Readonly<WorkflowEvent<RunParams>>, step: WorkflowStep): Promise<{ status: string }> {
    const { runId } = event.payload;
    const ctx = () => createServiceContext(this.env, { requestId: `workflow:${runId}` });
    const plan = await step.do("read the template", () => runPlan(ctx(), runId));
    if (!plan) return { status: "gone" };
    // The path so far: a rejection ends the run, unless a later step is for the rejected path.
    let path: "approved" | "rejected" = "approved";
    const goesOnWhenRejected = (index: number) => plan.steps.slice(index + 1).some((later) => later.when === "rejected");
    // A send-back starts a new round from an earlier step: each pass through a step has its own slot (its tasks, entries and links).
    let round = 1;
    const sentBack = new Map<number, number>();
    try {
      for (let at = 0; at < plan.steps.length; at += 1) {
        const definition = plan.steps[at]!;
        const index = slotOf(at, round);
        const label = round === 1 ? `step ${at + 1}` : `step ${at + 1} round ${round}`;
        if (definition.when && definition.when !== "always" && definition.when !== path) {
          await step.do(`${label}: skip`, () => skipStep(ctx(), runId, index, definition, path));
          continue;
        }
        if (definition.type === "back") {
          const times = sentBack.get(at) ?? 0;
          const isBack = await step.do(`${label}: send back`, () => sendBack(ctx(), runId, index, definition, times));
          if (!isBack) continue;
          sentBack.set(at, times + 1);
          round += 1;
          path = "approved";
          at = definition.to - 2;
          continue;
        }
        const dueAt = await step.do(`${label}: start`, () => startStep(ctx(), runId, index, definition));
        if (definition.type === "approve") {
          await step.do(`${label}: notify`, () => notifyAssignees(ctx(), runId, index, definition));
          const outcome = await waitForPeople(step, dueAt, {
            wait: (round) => [`${label}: decision ${round}`, DECISION_EVENT],
            check: (round) => step.do(`${label}: tally ${round}`, () => tallyApproval(ctx(), runId, index, definition)),
            escalate: () => step.do(`${label}: escalate`, () => escalateStep(ctx(), runId, index, definition)),
          });
          if (outcome === "rejected") {
            if (goesOnWhenRejected(at)) path = "rejected";
            else {
              await step.do("end: rejected", () => finishRun(ctx(), runId, "rejected"));
              return { status: "rejected" };
            }
          } else path = "approved";
        } else if (definition.type === "sign") {
          const envelopeId = await step.do(`${label}: send for signature`, () => sendForSignature(ctx(), runId, index, definition));
          if (envelopeId === null) return { status: "gone" };
          const outcome = await waitForPeople(step, dueAt, {
            wait: (round) => [`${label}: envelope ${round}`, ENVELOPE_EVENT],
            check: (round) => step.do(`${label}: signed? ${round}`, () => signatureOutcome(ctx(), runId, index, definition)),
            escalate: () => step.do(`${label}: escalate`, () => escalateSignStep(ctx(), runId, index, definition)),
          });
          if (outcome === "rejected") {
            if (goesOnWhenRejected(at)) path = "rejected";
            else {
              await step.do("end: rejected", () => finishRun(ctx(), runId, "rejected", "The document was not signed."));
              return { status: "rejected" };
            }
          } else path = "approved";
        } else if (definition.type === "form") {
          await step.do(`${label}: ask`, () => askForForm(ctx(), runId, index, definition));
          const outcome = await waitForPeople(step, dueAt, {
            wait: (round) => [`${label}: answer ${round}`, FORM_EVENT],
            check: async (round) => ((await step.do(`${label}: answered? ${round}`, () => formAnswered(ctx(), runId, index))) ? "answered" : "pending"),
            escalate: () => step.do(`${label}: escalate`, () => escalateFormStep(ctx(), runId, index, definition)),
          });
          if (outcome === "rejected") {
            if (goesOnWhenRejected(at)) path = "rejected";
            else {
              await step.do("end: rejected", () => finishRun(ctx(), runId, "rejected", "The form was not answered in time."));
              return { status: "rejected" };
            }
          } else if (outcome === "approved") path = "approved";
        } else if (definition.type === "case") {
          await step.do(`${label}: file into a case`, () => fileIntoCase(ctx(), runId, index, definition));
        } else if (definition.type === "copy") {
          await step.do(`${label}: copy`, () => copyDocuments(ctx(), runId, index, definition));
        } else if (definition.type === "tag") {
          await step.do(`${label}: tag`, () => tagDocuments(ctx(), runId, index, definition));
        } else if (definition.type === "metadata") {
          await step.do(`${label}: metadata`, () => setDocumentMetadata(ctx(), runId, index, definition));
        } else if (definition.type === "email") {
          await step.do(`${label}: e-mail`, () => emailAbout(ctx(), runId, index, definition));
        } else if (definition.type === "share") {
          await step.do(`${label}: share`, () => shareDocument(ctx(), runId, index, definition));
        } else if (definition.type === "webhook") {
          // A receiver that is down gets time to come back: 5 attempts over about half an hour.
          await step.do(`${label}: webhook`, { retries: WEBHOOK_RETRIES, timeout: "1 minute" }, () => callWebhook(ctx(), runId, index, definition));
        } else if (definition.type === "move") {
          await step.do(`${label}: move`, () => moveSubject(ctx(), runId, index, definition));
        }
      }
    } catch (error) {
      // The reason as a person reads it (the engine prefixes the error's class name).
      const message = (error instanceof Error ? error.message : String(error)).replace(/^(?:(?:Error|NonRetryableError): )+/, "");
      await step.do("end: failed", () => finishRun(ctx(), runId, "failed", message.slice(0, 500)));
      throw error;
    }
    const status = path === "rejected" ? "rejected" : "completed";
    await step.do(`end: ${status}`, () => finishRun(ctx(), runId, status));
    return { status };
  }
}
