import type { Context } from "hono";
import type { ContentRequest } from "~/features/files/content.server";
import type { AppEnv } from "./types";

/** What a GET or HEAD for a file's bytes asked for (method, Range and validators), for the content services. */
export function contentRequest(c: Context<AppEnv>): ContentRequest {
  return {
    method: c.req.method === "HEAD" ? "HEAD" : "GET",
    range: c.req.header("range") ?? null,
    ifNoneMatch: c.req.header("if-none-match") ?? null,
    ifRange: c.req.header("if-range") ?? null,
  };
}
