import { describe, expect, it } from "vitest";
import { LIMIT_NAMES, type LimitName } from "~/features/access/access.constants";
import { assertWithinLimit, loadMemberAccess, type MemberAccess } from "~/features/access/access.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import { createUser } from "~tests/factories/users";
import { testEnv } from "./helpers";

/** A fresh context each time: loadMemberAccess memoises per context object. */
function accessOf(userId: string): Promise<MemberAccess> {
  return loadMemberAccess(createServiceContext(testEnv, { requestId: "t" }), userId);
}

async function memberOn(tier: string): Promise<string> {
  const user = await createUser();
  await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(tier, user.id).run();
  return user.id;
}

async function setAddon(userId: string, addon: string, quantity: number) {
  await testEnv.DB.prepare(
    `insert into user_addons (user_id, addon, quantity, updated_at) values (?, ?, ?, ?)
     on conflict (user_id, addon) do update set quantity = excluded.quantity, updated_at = excluded.updated_at`,
  )
    .bind(userId, addon, quantity, Date.now())
    .run();
}

/** The refusal assertWithinLimit throws, or null when it allows. */
function refusal(access: MemberAccess, limit: LimitName, current: number, adding = 1): AppError | null {
  try {
    assertWithinLimit(access, limit, current, adding);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The seeded free tier (migration 0003) and the message each limit gives at its edge. */
const FREE_EDGES: Record<LimitName, { limit: number; message: string }> = {
  max_datarooms: { limit: 2, message: "Your Free plan allows 2 data rooms. Upgrade your plan or add extra data rooms." },
  max_dataroom_storage_mb: {
    limit: 1024,
    message: "Your Free plan allows 1024 MB of storage per data room. Upgrade your plan or add extra storage.",
  },
  max_dataroom_files: { limit: 250, message: "Your Free plan allows 250 files per data room. Upgrade your plan to raise it." },
  max_dataroom_folders: { limit: 50, message: "Your Free plan allows 50 folders per data room. Upgrade your plan to raise it." },
  max_dataroom_members: { limit: 3, message: "Your Free plan allows 3 members per data room. Upgrade your plan to raise it." },
  max_dataroom_guests: { limit: 10, message: "Your Free plan allows 10 guests per data room. Upgrade your plan to raise it." },
  max_team_seats: { limit: 0, message: "Your Free plan allows 0 team seats. Upgrade your plan or add team seats (the team collaboration add-on brings 5 a unit)." },
};

describe("assertWithinLimit on the free plan", () => {
  for (const name of LIMIT_NAMES) {
    it(`refuses ${name} at the limit with a clear message, and allows below it`, async () => {
      const access = await accessOf(await memberOn("free"));
      const { limit, message } = FREE_EDGES[name];
      expect(access.limits[name]).toBe(limit);
      // A limit of 0 (no team seats on Free) allows nothing at all.
      if (limit > 0) expect(refusal(access, name, 0)).toBeNull();
      expect(refusal(access, name, limit - 1)).toBeNull();
      const error = refusal(access, name, limit);
      expect(error?.code).toBe("FORBIDDEN");
      expect(error?.status).toBe(403);
      expect(error?.message).toBe(message);
      // Adding several at once counts them all.
      expect(refusal(access, name, limit - 1, 2)?.message).toBe(message);
    });
  }

  it("says 'data room' for a limit of one", async () => {
    const userId = await memberOn("free");
    await testEnv.DB.prepare("update tiers set max_datarooms = 1 where name = 'free'").run();
    try {
      const access = await accessOf(userId);
      expect(refusal(access, "max_datarooms", 1)?.message).toBe("Your Free plan allows 1 data room. Upgrade your plan or add extra data rooms.");
    } finally {
      await testEnv.DB.prepare("update tiers set max_datarooms = 2 where name = 'free'").run();
    }
  });
});

describe("addons raise the limits they name", () => {
  it("refuses the 3rd data room on free, and allows it after an extra_datarooms addon (limit 4)", async () => {
    const userId = await memberOn("free");
    const before = await accessOf(userId);
    expect(refusal(before, "max_datarooms", 1)).toBeNull();
    expect(refusal(before, "max_datarooms", 2)?.message).toBe("Your Free plan allows 2 data rooms. Upgrade your plan or add extra data rooms.");

    await setAddon(userId, "extra_datarooms", 1);
    const after = await accessOf(userId);
    expect(after.limits.max_datarooms).toBe(4);
    expect(after.addons).toEqual({ extra_datarooms: 1 });
    expect(after.permissions).toContain("dataroom.additional_datarooms");
    expect(refusal(after, "max_datarooms", 2)).toBeNull();
    expect(refusal(after, "max_datarooms", 3)).toBeNull();
    expect(refusal(after, "max_datarooms", 4)?.message).toBe("Your Free plan allows 4 data rooms. Upgrade your plan or add extra data rooms.");

    await setAddon(userId, "extra_datarooms", 3);
    expect((await accessOf(userId)).limits.max_datarooms).toBe(2 + 3 * 2);
  });

  it("raises storage by 1024 MB per extra_storage unit", async () => {
    const userId = await memberOn("free");
    expect(refusal(await accessOf(userId), "max_dataroom_storage_mb", 1500)?.code).toBe("FORBIDDEN");
    await setAddon(userId, "extra_storage", 2);
    const access = await accessOf(userId);
    expect(access.limits.max_dataroom_storage_mb).toBe(1024 + 2 * 1024);
    expect(refusal(access, "max_dataroom_storage_mb", 1500)).toBeNull();
    expect(refusal(access, "max_dataroom_storage_mb", 3071)).toBeNull();
    expect(refusal(access, "max_dataroom_storage_mb", 3072)?.message).toBe(
      "Your Free plan allows 3072 MB of storage per data room. Upgrade your plan or add extra storage.",
    );
  });

  it("leaves the other limits as they are and ignores unknown addon rows", async () => {
    const userId = await memberOn("basic");
    await setAddon(userId, "extra_datarooms", 1);
    await setAddon(userId, "time_machine", 9);
    const access = await accessOf(userId);
    expect(access.addons).toEqual({ extra_datarooms: 1 });
    expect(access.limits).toEqual({
      max_datarooms: 5 + 2,
      max_dataroom_storage_mb: 10240,
      max_dataroom_files: 2500,
      max_dataroom_folders: 500,
      max_dataroom_members: 10,
      max_dataroom_guests: 50,
      max_team_seats: 0,
    });
    expect(refusal(access, "max_dataroom_members", 10)?.message).toBe(
      "Your Basic plan allows 10 members per data room. Upgrade your plan to raise it.",
    );
  });

  it("raises team seats by 5 per team collaboration unit (dataroom_team), from the Business plan's 10", async () => {
    const userId = await memberOn("business");
    expect((await accessOf(userId)).limits.max_team_seats).toBe(10);
    await setAddon(userId, "dataroom_team", 2);
    const access = await accessOf(userId);
    expect(access.limits.max_team_seats).toBe(20);
    expect(refusal(access, "max_team_seats", 19)).toBeNull();
    expect(refusal(access, "max_team_seats", 20)?.message).toBe("Your Business plan allows 20 team seats. Upgrade your plan or add team seats (the team collaboration add-on brings 5 a unit).");
  });
});

describe("the custom (Enterprise) plan", () => {
  it("never refuses: every limit is -1, addons or not", async () => {
    const userId = await memberOn("custom");
    await setAddon(userId, "extra_datarooms", 2);
    const access = await accessOf(userId);
    for (const name of LIMIT_NAMES) {
      expect(access.limits[name], name).toBe(-1);
      expect(refusal(access, name, 1_000_000, 1_000), name).toBeNull();
    }
  });
});

describe("tier limits edited in the tiers table", () => {
  it("take effect on the next load", async () => {
    const userId = await memberOn("pro");
    expect((await accessOf(userId)).limits.max_dataroom_guests).toBe(250);
    await testEnv.DB.prepare("update tiers set max_dataroom_guests = -1 where name = 'pro'").run();
    try {
      expect(refusal(await accessOf(userId), "max_dataroom_guests", 10_000)).toBeNull();
    } finally {
      await testEnv.DB.prepare("update tiers set max_dataroom_guests = 250 where name = 'pro'").run();
    }
  });
});
