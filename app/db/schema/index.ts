// drizzle tables grouped by domain; drizzle-kit reads this file to generate migrations/.
export * from "./access";
export * from "./auth";
export * from "./jobs";
export * from "./files";
export * from "./datarooms";
export * from "./notifications";
export * from "./sharing";
export * from "./batch";
export * from "./secrets";
export * from "./receive";
export * from "./search";
export * from "./forms";
export * from "./signatures";
export * from "./redaction";
export * from "./galleries";
export * from "./workflows";
export * from "./cases";
