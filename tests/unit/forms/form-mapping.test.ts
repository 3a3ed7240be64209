import { describe, expect, it } from "vitest";
import { BUILT_IN_TEMPLATES } from "~/features/forms/form-templates";
import { labelSimilarity, suggestMapping, type MappingTarget } from "~/features/forms/form-mapping";

const kyc = BUILT_IN_TEMPLATES.find((template) => template.id === "template-kyc-request")!.definition.fields;

describe("mapping a form's questions onto a PDF's fields by their labels (offline)", () => {
  it("pairs each PDF field with the question whose label or id is most alike, and leaves unknown ones unpaired", () => {
    const targets: MappingTarget[] = [
      { name: "applicant.fullLegalName", label: "applicant.fullLegalName", type: "text" },
      { name: "dob", label: "Date of birth (DD/MM/YYYY)", type: "text" },
      { name: "Nationality", label: "Nationality", type: "text" },
      { name: "home_address", label: "Residential address", type: "text" },
      { name: "idNumber", label: "Passport / ID number", type: "text" },
      { name: "pep_box", label: "Politically exposed person", type: "checkbox" },
      { name: "Fax", label: "Fax number", type: "text" },
    ];
    const pairs = Object.fromEntries(suggestMapping(kyc, targets).map((pair) => [pair.target, pair.fieldId]));
    expect(pairs).toEqual({
      "applicant.fullLegalName": "name",
      dob: "birth",
      Nationality: "nationality",
      home_address: "address",
      idNumber: "id-number",
      pep_box: "pep",
      Fax: null,
    });
  });

  it("never puts a text answer into a checkbox, nor a file or a signature anywhere", () => {
    const pairs = suggestMapping(
      [
        { id: "terms", type: "short_text", label: "Terms accepted", required: false },
        { id: "scan", type: "file", label: "Scan", required: false },
        { id: "sign", type: "signature", label: "Signature", required: false },
      ],
      [
        { name: "terms", label: "Terms accepted", type: "checkbox" },
        { name: "scan", label: "Scan", type: "text" },
        { name: "signature", label: "Signature", type: "text" },
      ],
    );
    expect(pairs.map((pair) => pair.fieldId)).toEqual([null, null, null]);
  });

  it("scores alike labels high and unrelated ones low", () => {
    expect(labelSimilarity("E-mail address", "emailAddress")).toBeGreaterThan(0.8);
    expect(labelSimilarity("Company", "Your company name")).toBeGreaterThan(0.6);
    expect(labelSimilarity("Company", "Date of birth")).toBeLessThan(0.2);
  });
});
