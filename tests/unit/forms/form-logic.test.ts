import { describe, expect, it } from "vitest";
import { evaluateLogic } from "~/features/forms/form-logic";
import { LOGIC_CASES } from "~tests/shared/form-logic-cases";

// The same cases run in workerd (tests/integration/form-logic.test.ts): browser and server agree.
describe("the form logic evaluator in the browser's bundle", () => {
  for (const testCase of LOGIC_CASES) {
    it(testCase.name, () => {
      const state = evaluateLogic(testCase.definition, testCase.answers);
      expect({ visible: [...state.visible].sort(), required: [...state.required].sort(), path: state.path }).toEqual({ visible: [...testCase.visible].sort(), required: [...testCase.required].sort(), path: testCase.path });
    });
  }
});
