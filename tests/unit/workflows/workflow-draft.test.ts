import { describe, expect, it } from "vitest";
import { definitionOf, draftStep, type DraftTrigger } from "~/features/workflows/workflow-draft";
import { createWorkflowSchema } from "~/features/workflows/workflows.schema";

/** The builder's draft becomes the JSON the server checks: what a builder chose arrives as they meant it. */
const manual: DraftTrigger = { type: "manual", folderId: "", formId: "", pageId: "", everyDays: "7" };

describe("the workflow builder's draft", () => {
  it("sends a form step's due time in hours and what happens when it is overdue, which the server's schema takes as it is", () => {
    const form = { ...draftStep(1, "form", "", "", "Bank details", "form-1"), to: " vendor@example.com ", dueDays: "1.5", escalation: "reassign" as const, reassignTo: "Deputy@Example.com " };
    const onward = { ...draftStep(2, "form", "", "", "Tax form", "form-2"), to: "tax@example.com", dueDays: "2", escalation: "approve" as const };
    const after = { ...draftStep(3, "tag", ""), tags: "onboarded", when: "approved" as const };
    const definition = definitionOf("Onboarding", manual, [form, onward, after]);
    expect(definition.steps[0]).toEqual({ type: "form", name: "Bank details", when: "always", formId: "form-1", to: "vendor@example.com", dueInHours: 36, escalation: { action: "reassign", to: "Deputy@Example.com" } });
    const parsed = createWorkflowSchema.parse(definition);
    expect(parsed.steps[0]).toMatchObject({ dueInHours: 36, escalation: { action: "reassign", to: "deputy@example.com" } });
    // A form step whose escalation takes a path decides: a later step may be for a path.
    expect(parsed.steps[2]).toMatchObject({ type: "tag", when: "approved" });
  });

  it("sends no due time for a step without one, and the server reminds by default when only a due time is given", () => {
    const plain = { ...draftStep(1, "form", "", "", "Details", "form-1"), to: "v@example.com", escalation: "reject" as const };
    expect(definitionOf("Plain", manual, [plain]).steps[0]).not.toHaveProperty("dueInHours");
    const dueOnly = createWorkflowSchema.parse({ name: "Due", steps: [{ type: "form", name: "Details", formId: "form-1", to: "v@example.com", dueInHours: 5 }] });
    expect(dueOnly.steps[0]).toMatchObject({ dueInHours: 5, escalation: { action: "remind" } });
  });

  it("refuses a later step for a path when the form before it only reminds (it decides nothing)", () => {
    const result = createWorkflowSchema.safeParse({
      name: "No path",
      steps: [
        { type: "form", name: "Details", formId: "form-1", to: "v@example.com", dueInHours: 5 },
        { type: "tag", name: "Tag", tags: ["x"], when: "rejected" },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("“Tag” runs only when rejected, but no step before it decides: put an approval or a signature before it.");
  });

  it("sends a sign step's due time and its escalation, which the server takes only as remind or reject", () => {
    const sign = { ...draftStep(1, "sign", "", "", "Tenant signs"), signers: "Tina Tenant <tina@example.com>", dueDays: "3", escalation: "reject" as const };
    const definition = definitionOf("Lease", manual, [sign]);
    expect(definition.steps[0]).toMatchObject({ type: "sign", signers: [{ name: "Tina Tenant", email: "tina@example.com" }], dueInHours: 72, escalation: { action: "reject" } });
    expect(createWorkflowSchema.parse(definition).steps[0]).toMatchObject({ dueInHours: 72, escalation: { action: "reject" } });
    const handedOn = createWorkflowSchema.safeParse(definitionOf("Lease", manual, [{ ...sign, escalation: "reassign" as const, reassignTo: "x@example.com" }]));
    expect(handedOn.success).toBe(false);
    expect(handedOn.error?.issues[0]?.message).toBe("A sign step, when overdue, reminds its signers or ends rejected (escalation remind or reject).");
  });

  it("sends a send-back step for the rejected path with the step number it goes back to, which the server takes", () => {
    const review = { ...draftStep(1, "approve", "", "", "Review"), people: "ada@example.com" };
    const back = { ...draftStep(2, "back", ""), backTo: "1", times: "3" };
    expect(back.when).toBe("rejected");
    const definition = definitionOf("Revise", manual, [review, back]);
    expect(definition.steps[1]).toEqual({ type: "back", name: "Send back", when: "rejected", to: 1, times: 3 });
    expect(createWorkflowSchema.parse(definition).steps[1]).toMatchObject({ type: "back", to: 1, times: 3 });
  });
});
