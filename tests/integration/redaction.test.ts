import { describe, expect, it } from "vitest";
import { checkRedaction } from "~/features/redaction/check-redaction.server";
import { redactionEngine } from "~/features/redaction/redaction-engine.server";
import { EMAIL_MARK, FIXTURE_LINES, redactionFixture } from "~tests/shared/redaction-fixtures";
import { testEnv } from "./helpers";

/**
 * Redaction (issue 39, step 1): the engine Worker reached through the app's service binding, and
 * the app's own check of its result with a second PDF reader.
 */
describe("the redaction engine behind the REDACTOR binding", () => {
  it("returns a PDF whose text under the mark is gone, which the app's own check passes, and the same check catches the original", async () => {
    const original = await redactionFixture({ pages: 3 });
    const result = await redactionEngine(testEnv).redact({ pdf: original, marks: [EMAIL_MARK(2)] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const checked = await checkRedaction(result.bytes, result.rects, result.removedText);
    expect(checked).toMatchObject({ passed: true, pagesWithTextUnderMarks: [], stringsFoundInBytes: [] });
    // The marked address is nowhere in the bytes, in any encoding the check knows.
    const raw = new TextDecoder("latin1").decode(result.bytes);
    expect(raw).not.toContain(FIXTURE_LINES.email(3));
    // The check is not blind: the original, with the same marks, fails it on that page.
    const unredacted = await checkRedaction(original, result.rects, result.removedText);
    expect(unredacted.passed).toBe(false);
    expect(unredacted.pagesWithTextUnderMarks).toEqual([2]);
    // And the words themselves, hidden in the bytes where no text layer shows them (here as hex in a
    // comment after the end of the file), fail the byte check.
    const hexEmail = [...new TextEncoder().encode(FIXTURE_LINES.email(3))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const smuggled = new Uint8Array([...result.bytes, ...new TextEncoder().encode(`\n%<${hexEmail}>\n`)]);
    expect((await checkRedaction(smuggled, result.rects, result.removedText)).stringsFoundInBytes).toContain(FIXTURE_LINES.email(3));
  });

  it("says which words under a mark are still elsewhere in the document, and answers a file that is not a PDF with the reason", async () => {
    const original = await redactionFixture({ pages: 2 });
    const result = await redactionEngine(testEnv).redact({ pdf: original, marks: [{ page: 0, x: 0.1, y: (792 - 672) / 792, w: 0.5, h: 16 / 792 }] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const checked = await checkRedaction(result.bytes, result.rects, result.removedText);
    expect(checked.passed).toBe(true);
    expect(checked.alsoElsewhere).toEqual(expect.arrayContaining(["keep", "sentence", "visible."]));
    expect(await redactionEngine(testEnv).redact({ pdf: new TextEncoder().encode("hello"), marks: [] })).toEqual({ ok: false, reason: "This file could not be read as a PDF, so nothing in it can be redacted." });
  });
});
