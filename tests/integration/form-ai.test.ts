import { beforeAll, describe, expect, it } from "vitest";
import { generateForm } from "~/features/forms/forms.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, signedIn, type Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/**
 * Workers AI for forms (issue 37, ADR 030). The binding exists only in production; here a fake one
 * stands in for it, answering what a model might: a good form, nonsense, or nothing. A good answer
 * is used whole; anything else is refused whole and the offline generator makes the draft, saying why.
 */

type Ai = { run: (model: string, input: Record<string, unknown>) => Promise<unknown> };
const withAi = (ai: Ai) => createServiceContext({ ...testEnv, AI: ai } as typeof testEnv, { requestId: "form-ai" });
const answering = (response: unknown): Ai & { asked: Record<string, unknown>[] } => {
  const asked: Record<string, unknown>[] = [];
  return { asked, run: async (_model, input) => (asked.push(input), { response }) };
};

describe("forms: Workers AI where it is bound", () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Al Model" });
  });

  it("uses the model's form when it holds together, asked for JSON with the member's sentence", async () => {
    const ai = answering(
      JSON.stringify({
        title: "Vendor onboarding",
        description: "New suppliers tell us who they are.",
        fields: [
          { id: "company", type: "short_text", label: "Company name", required: true },
          { id: "vat", type: "radio", label: "Are you VAT registered?", required: true, options: ["Yes", "No"] },
          { id: "vat-number", type: "short_text", label: "VAT number", required: false },
        ],
        rules: [{ id: "r1", match: "all", conditions: [{ field: "vat", operator: "equals", value: "Yes" }], action: "show", target: "vat-number" }],
      }),
    );
    const form = await generateForm(withAi(ai), owner.id, { prompt: "Vendor onboarding with VAT number when registered" });
    expect(form).toMatchObject({ title: "Vendor onboarding", generatedBy: "workers-ai", fallbackReason: null, status: "draft" });
    expect(form.definition.fields.map((field) => field.id)).toEqual(["company", "vat", "vat-number"]);
    expect(form.definition.rules).toHaveLength(1);
    expect(JSON.stringify(ai.asked[0])).toContain("Vendor onboarding with VAT number when registered");
    expect(ai.asked[0]).toMatchObject({ response_format: { type: "json_object" } });
  });

  it("refuses an answer that is not a valid form whole, and makes the draft offline instead, saying why", async () => {
    const invalid = [
      "Sure! Here is your form: a name field and an e-mail field.",
      { title: "Broken", fields: [{ id: "Bad Id", type: "short_text", label: "Name", required: true }] },
      { title: "Unknown type", fields: [{ id: "x", type: "hologram", label: "Beam me", required: false }] },
      { title: "Rule backwards", fields: [{ id: "a", type: "short_text", label: "A", required: false }, { id: "b", type: "short_text", label: "B", required: false }], rules: [{ id: "r1", match: "all", conditions: [{ field: "b", operator: "is_empty" }], action: "hide", target: "a" }] },
      { title: "Only a heading", fields: [{ id: "h", type: "heading", label: "Hello", required: false }] },
    ];
    for (const response of invalid) {
      const before = await countWhere("select count(*) as n from forms where user_id = ?", owner.id);
      const form = await generateForm(withAi(answering(response)), owner.id, { prompt: "A job application with a phone number" });
      expect(form, JSON.stringify(response)).toMatchObject({ generatedBy: "offline", fallbackReason: "the model's answer was not a valid form", title: "Job application" });
      expect(await countWhere("select count(*) as n from forms where user_id = ?", owner.id)).toBe(before + 1);
    }
    const unreachable = await generateForm(withAi({ run: async () => Promise.reject(new Error("3040: capacity")) }), owner.id, { prompt: "Event registration" });
    expect(unreachable).toMatchObject({ generatedBy: "offline", fallbackReason: "the model could not be reached" });
  });
});
