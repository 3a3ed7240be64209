import { describe, expect, it } from "vitest";
import { updateFolderSchema } from "~/features/files/files.schema";
import { COLOR_FORMAT_MESSAGE, contrastingText, parseFolderColor } from "~/features/files/folder-color";

/** Every format of spec §5 ("hex with 3, 4, 6 or 8 digits, and rgb, hsl or hwb values"), with its canonical hex. */
const ACCEPTED: [input: string, hex: string][] = [
  ["#abc", "#aabbcc"],
  ["abc", "#aabbcc"],
  ["#abcd", "#aabbccdd"],
  ["abcd", "#aabbccdd"],
  ["#1e90ff", "#1e90ff"],
  ["1E90FF", "#1e90ff"],
  ["#1e90ff80", "#1e90ff80"],
  ["1e90ff80", "#1e90ff80"],
  ["#1e90ffff", "#1e90ff"],
  ["rgb(30, 144, 255)", "#1e90ff"],
  ["rgb(30 144 255)", "#1e90ff"],
  ["rgb(30 144 255 / 50%)", "#1e90ff80"],
  ["rgba(30, 144, 255, 0.5)", "#1e90ff80"],
  ["rgb(100%, 0%, 0%)", "#ff0000"],
  ["hsl(120, 100%, 50%)", "#00ff00"],
  ["hsl(120 100% 50%)", "#00ff00"],
  ["hsla(120, 100%, 50%, 0.25)", "#00ff0040"],
  ["hsl(120deg 100% 50% / 0.25)", "#00ff0040"],
  ["hwb(0 0% 0%)", "#ff0000"],
  ["hwb(240 20% 30%)", "#3333b3"],
  ["hwb(0 0% 0% / 0.5)", "#ff000080"],
  ["  #ABC  ", "#aabbcc"],
];

const REJECTED = [
  "",
  "   ",
  "red",
  "transparent",
  "currentColor",
  "#ab",
  "#abcde",
  "#abcdefa",
  "#abcdef123",
  "#ggg",
  "zzz",
  "rgb(1, 2)",
  "rgb(red)",
  "hsv(120, 100%, 50%)",
  "lab(50% 40 59)",
  "color(display-p3 1 0 0)",
  "url(javascript:alert(1))",
  "#abc; background: url(x)",
  `rgb(${" ".repeat(80)}1, 2, 3)`,
  "#".padEnd(65, "a"),
];

describe("parseFolderColor", () => {
  for (const [input, hex] of ACCEPTED) {
    it(`accepts ${JSON.stringify(input)} and stores it as ${hex}`, () => {
      expect(parseFolderColor(input)).toBe(hex);
    });
  }

  for (const input of REJECTED) {
    it(`rejects ${JSON.stringify(input.length > 40 ? `${input.slice(0, 20)}…(${input.length} characters)` : input)}`, () => {
      expect(parseFolderColor(input)).toBeNull();
    });
  }

  it("always answers lowercase hex of 6 or 8 digits, so stored colours compare equal", () => {
    for (const [input] of ACCEPTED) expect(parseFolderColor(input)).toMatch(/^#[0-9a-f]{6}([0-9a-f]{2})?$/);
  });

  it("picks black text on light colours and white text on dark ones", () => {
    expect(contrastingText("#ffff00")).toBe("#000000");
    expect(contrastingText("#1e3a8a")).toBe("#ffffff");
  });
});

describe("the folder update schema", () => {
  it("turns any accepted colour into canonical hex and an empty one into no colour", () => {
    expect(updateFolderSchema.parse({ label: "Plans", color: "hsl(120 100% 50%)", icon: "folder" })).toEqual({
      label: "Plans",
      color: "#00ff00",
      icon: "folder",
    });
    expect(updateFolderSchema.parse({ label: "Plans", color: "", icon: null })).toEqual({ label: "Plans", color: null, icon: null });
  });

  it("names the accepted formats when the colour is not one of them", () => {
    const result = updateFolderSchema.safeParse({ label: "Plans", color: "red" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(COLOR_FORMAT_MESSAGE);
  });

  it("requires a label and refuses icon names outside the Material list", () => {
    expect(updateFolderSchema.safeParse({ label: "   " }).error?.issues[0]?.message).toBe("Label is required.");
    expect(updateFolderSchema.safeParse({ label: "Plans", icon: "not_an_icon_name" }).error?.issues[0]?.message).toBe(
      "Choose an icon from the list.",
    );
  });
});
