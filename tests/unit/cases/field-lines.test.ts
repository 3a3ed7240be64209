import { describe, expect, it } from "vitest";
import { fieldKey, fieldLines, parseFieldLines } from "~/features/cases/cases.schema";

describe("the case type form's field lines", () => {
  it("reads a label, its kind, a choice's options and a required mark, one field per line", () => {
    expect(parseFieldLines("Counterparty*\n  Value: number \nRenewal date: date\n\nRisk: choice: Low | Medium | High")).toEqual([
      { label: "Counterparty", type: "text", options: [], required: true },
      { label: "Value", type: "number", options: [], required: false },
      { label: "Renewal date", type: "date", options: [], required: false },
      { label: "Risk", type: "select", options: ["Low", "Medium", "High"], required: false },
    ]);
  });

  it("passes an unknown kind on for the server to name, and makes keys from labels", () => {
    expect(parseFieldLines("Colour: rainbow")).toEqual([{ label: "Colour", type: "rainbow", options: [], required: false }]);
    expect(fieldKey("Claim amount (EUR)")).toBe("claim_amount_eur");
    expect(fieldKey("Éléphant")).toBe("elephant");
    expect(fieldKey("!!!")).toBe("field");
  });

  it("writes a type's fields back as the lines they are read from, so editing a type starts from what it is", () => {
    const lines = "Counterparty*\nValue: number\nRenewal date*: date\nRisk: choice: Low | Medium | High";
    const fields = parseFieldLines(lines);
    expect(fieldLines(fields)).toBe(lines);
    expect(parseFieldLines(fieldLines(fields))).toEqual(fields);
  });
});
