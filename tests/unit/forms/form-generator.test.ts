import { describe, expect, it } from "vitest";
import { formDefinitionSchema } from "~/features/forms/form-definition";
import { generateFormOffline } from "~/features/forms/form-generator";

describe("the offline form generator", () => {
  it("starts from the template the sentence describes and adds the questions it asks for", () => {
    const generated = generateFormOffline("A job application form for designers, with their portfolio link and a phone number");
    expect(generated.templateId).toBe("template-job-application");
    expect(generated.title).toBe("Job application");
    // The template asks for a phone and a LinkedIn or portfolio already: nothing twice.
    expect(generated.added).toEqual([]);
    expect(formDefinitionSchema.safeParse(generated.definition).success).toBe(true);
  });

  it("adds what the template lacks, before the consent box", () => {
    const generated = generateFormOffline("Client intake with date of birth and budget, GDPR consent");
    expect(generated.templateId).toBe("template-client-intake");
    expect(generated.added).toEqual(["Date of birth", "Amount"]);
    expect(generated.definition.fields.at(-1)!.type).toBe("consent");
    expect(formDefinitionSchema.safeParse(generated.definition).success).toBe(true);
  });

  it("builds a form from the words alone when no template fits, asking who is writing", () => {
    const generated = generateFormOffline("Sign-up sheet for the office football team: shirt size comments");
    expect(generated.templateId).toBeNull();
    expect(generated.definition.fields.map((field) => field.label)).toEqual(["Full name", "E-mail", "Anything else?"]);
    expect(generated.title).toBe("Sign-up sheet for the office football team: shirt size");
    expect(formDefinitionSchema.safeParse(generated.definition).success).toBe(true);
  });
});
