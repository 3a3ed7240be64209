import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dataroomIdSchema, isDataroomId } from "~/features/datarooms/datarooms.schema";
import { retryDelaySeconds } from "~/features/jobs/jobs.schema";
import { COOKIE_CONSENT_NAME, parseCookieConsent, serializeCookieConsent } from "~/lib/cookie-consent";
import { runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { loginRedirectUrl, safeRedirect } from "~/lib/safe-redirect";
import { pageTitle } from "~/lib/title";
import { toastMessages } from "~/lib/toast.schema";
import { parseInput } from "~/lib/validation";

describe("cookie consent cookie", () => {
  it("is written as dataroom_cookie_consent for 365 days on path / with SameSite Lax", () => {
    expect(serializeCookieConsent("full", { isSecure: false })).toBe(
      "dataroom_cookie_consent=full; Path=/; Max-Age=31536000; SameSite=Lax",
    );
  });

  it("is Secure on https", () => {
    expect(serializeCookieConsent("essential", { isSecure: true })).toMatch(/; Secure$/);
  });

  it("is read back, and anything but full or essential counts as no choice", () => {
    expect(parseCookieConsent(`a=1; ${COOKIE_CONSENT_NAME}=essential; b=2`)).toBe("essential");
    expect(parseCookieConsent(`${COOKIE_CONSENT_NAME}=full`)).toBe("full");
    expect(parseCookieConsent(`${COOKIE_CONSENT_NAME}=maybe`)).toBeNull();
    expect(parseCookieConsent(null)).toBeNull();
  });
});

describe("redirects after sign-in", () => {
  it("follow only same-site relative paths", () => {
    expect(safeRedirect("/forms/1/edit")).toBe("/forms/1/edit");
    for (const evil of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null]) {
      expect(safeRedirect(evil)).toBe("/");
    }
  });

  it("build a login URL that brings the visitor back", () => {
    expect(loginRedirectUrl("/forms?page=2")).toBe("/login?redirectTo=%2Fforms%3Fpage%3D2");
    expect(loginRedirectUrl("//evil.example")).toBe("/login");
  });
});

describe("small contracts of the spec", () => {
  it("page titles read '<Page> - Strongroom'", () => {
    expect(pageTitle("Data room settings")).toBe("Data room settings - Strongroom");
  });

  it("toast helper messages read 'X Updated/Created/Deleted Successfully.'", () => {
    expect(toastMessages.updated("Folder")).toBe("Folder Updated Successfully.");
    expect(toastMessages.created("Form")).toBe("Form Created Successfully.");
    expect(toastMessages.deleted("File")).toBe("File Deleted Successfully.");
  });

  it("a data room id is 36 hex-and-dash characters, never 'undefined' or 'null'", () => {
    expect(isDataroomId("0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b")).toBe(true);
    for (const bad of ["", "undefined", "null", {}, 42, "0f8e2a4c"]) expect(isDataroomId(bad)).toBe(false);
    expect(dataroomIdSchema.safeParse("null").error?.issues[0]?.message).toBe("A data room id is required.");
  });

  it("job retries back off 1 s, 2 s, 4 s … capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(retryDelaySeconds)).toEqual([1, 2, 4, 8, 16, 30, 30]);
  });

  it("invalid input becomes a 400 AppError naming the field", () => {
    const schema = z.object({ label: z.string().min(1, "Label is required.") });
    expect(() => parseInput(schema, { label: "" })).toThrow(AppError);
    try {
      parseInput(schema, { label: "" });
    } catch (error) {
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).message).toBe("label: Label is required.");
      expect((error as AppError).fieldErrors).toEqual({ label: ["Label is required."] });
    }
  });
});

describe("cron triggers", () => {
  // Importing the worker's cron module loads every job's module (the whole app's services): slow on a busy machine.
  it("every cron in wrangler.toml has tasks, and every scheduled task has a cron", { timeout: 30_000 }, async () => {
    const { cronSchedule } = await import("~workers/cron");
    const toml = readFileSync("wrangler.toml", "utf8");
    const declared = new Set(
      [...toml.matchAll(/^crons = \[(.*)\]$/gm)].flatMap((m) => [...m[1]!.matchAll(/"([^"]+)"/g)].map((x) => x[1])),
    );
    expect([...declared].sort()).toEqual(Object.keys(cronSchedule).sort());
    for (const tasks of Object.values(cronSchedule)) expect(tasks.length).toBeGreaterThan(0);
  });
});

describe("page loaders' refusals", () => {
  it("send the person to the page that explains a refusal when it names one, and show the others as the route's error page", async () => {
    const redirected = await runLoader(async () => {
      throw new AppError("FORBIDDEN", "This data room requires two-factor sign-in.", { location: "/dataroom/abc/two-factor" });
    }).catch((thrown: unknown) => thrown);
    expect(redirected).toBeInstanceOf(Response);
    expect((redirected as Response).status).toBe(302);
    expect((redirected as Response).headers.get("Location")).toBe("/dataroom/abc/two-factor");

    const refused = await runLoader(async () => {
      throw new AppError("FORBIDDEN", "No.");
    }).catch((thrown: unknown) => thrown);
    expect(refused).toMatchObject({ init: { status: 403 }, data: { message: "No.", code: "FORBIDDEN" } });
  });
});
