import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { origin, testEnv } from "./helpers";

describe("the walking skeleton", () => {
  it("reports itself healthy after a real D1 round trip", async () => {
    const response = await exports.default.fetch(`${origin}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true, db: true });
  });

  it("sees the migrated schema in D1: the job ledger table exists", async () => {
    const table = await testEnv.DB.prepare("select name from sqlite_master where type = 'table' and name = 'jobs'").first<{
      name: string;
    }>();
    expect(table?.name).toBe("jobs");
  });

  it("stores an object in R2 and reads the same bytes back", async () => {
    const key = `skeleton/${crypto.randomUUID()}`;
    const bytes = new TextEncoder().encode("Strongroom keeps every byte.");
    await testEnv.FILES.put(key, bytes, { httpMetadata: { contentType: "text/plain" } });
    const object = await testEnv.FILES.get(key);
    expect(object).not.toBeNull();
    expect(object!.httpMetadata?.contentType).toBe("text/plain");
    expect(await object!.text()).toBe("Strongroom keeps every byte.");
    await testEnv.FILES.delete(key);
    expect(await testEnv.FILES.head(key)).toBeNull();
  });
});
