import { z } from "zod";
import type { ServiceContext } from "~/lib/service-context.server";
import { FIELD_TYPES, FORM_DESCRIPTION_MAX, FORM_TITLE_MAX, formDefinitionSchema, type FormDefinition, takesAnswer } from "./form-definition";

/**
 * Workers AI for forms (issue 37, ADR 030): where the deployment binds `AI` (production only, see
 * wrangler.toml), "Generate a form" asks a model for the form as JSON. The answer must pass the
 * same zod schema every saved form passes; anything else is refused whole, never half-applied,
 * and the caller falls back to the offline path, saying why. Without the binding (npm start, the
 * tests) nothing here runs.
 */

export const FORM_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

type AiBinding = { run: (model: string, input: Record<string, unknown>) => Promise<unknown> };

/** The binding, when this deployment has one. */
export function formAi(ctx: ServiceContext): AiBinding | null {
  const ai = (ctx.env as { AI?: AiBinding }).AI;
  return ai && typeof ai.run === "function" ? ai : null;
}

const headSchema = z.object({
  title: z.string().trim().min(1).max(FORM_TITLE_MAX),
  description: z.string().trim().max(FORM_DESCRIPTION_MAX).default(""),
  fields: z.array(z.unknown()),
  rules: z.array(z.unknown()).default([]),
});

/** The text a model answered: Workers AI gives `{ response }`, a string or (in JSON mode) an object already parsed. */
export function modelJson(answer: unknown): unknown {
  const response = typeof answer === "object" && answer !== null && "response" in answer ? (answer as { response: unknown }).response : answer;
  if (typeof response !== "string") return response;
  const start = response.indexOf("{");
  const end = response.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(response.slice(start, end + 1));
  } catch {
    return null;
  }
}


const GENERATE_INSTRUCTIONS = [
  "You design web forms. Answer with one JSON object only: {\"title\", \"description\", \"fields\", \"rules\"}.",
  `Each field: {"id" (lower-case letters, digits, - or _, starting with a letter, unique), "type" (one of ${FIELD_TYPES.join(", ")}; page_break starts a new page), "label", "required" (true or false), optional "help", "options" (2 or more, for select, radio, multi_select)}.`,
  "Use rules only when the request asks for conditions: {\"id\", \"match\": \"all\", \"conditions\": [{\"field\", \"operator\": \"equals\", \"value\"}], \"action\": \"show\", \"target\"}; a rule looks at earlier fields and acts on a later one.",
  "At most 25 fields. Never a file question unless asked. Write labels as short questions in the language of the request.",
].join("\n");

export type AiOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A form from a sentence by the model, checked whole by the form schema; why not, when it is refused. */
export async function generateFormWithAi(ctx: ServiceContext, ai: AiBinding, prompt: string): Promise<AiOutcome<{ title: string; description: string; definition: FormDefinition }>> {
  let answer: unknown;
  try {
    answer = await ai.run(FORM_AI_MODEL, {
      messages: [
        { role: "system", content: GENERATE_INSTRUCTIONS },
        { role: "user", content: prompt },
      ],
      response_format: { type: "json_object" },
      max_tokens: 3_000,
    });
  } catch (error) {
    ctx.logger.warn("forms.ai_failed", { task: "generate", error: error instanceof Error ? error.message : String(error) });
    return { ok: false, reason: "the model could not be reached" };
  }
  // The whole answer passes the schema every saved form passes (shapes, ids, logic), or none of it is used.
  const head = headSchema.safeParse(modelJson(answer));
  const definition = head.success ? formDefinitionSchema.safeParse({ fields: head.data.fields, rules: head.data.rules }) : null;
  if (!head.success || !definition?.success || !definition.data.fields.some((field) => takesAnswer(field.type))) {
    const issue = !head.success ? head.error.issues[0]?.message : definition && !definition.success ? definition.error.issues[0]?.message : "no question";
    ctx.logger.warn("forms.ai_refused", { task: "generate", issue: issue ?? "" });
    return { ok: false, reason: "the model's answer was not a valid form" };
  }
  return { ok: true, value: { title: head.data.title, description: head.data.description, definition: definition.data } };
}
