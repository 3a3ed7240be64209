import { describe, expect, it } from "vitest";
import { missingNeed, roomGrantOf, teamPermissionsOfCustomRole, withNeeds, withoutDependents } from "~/features/teams/team-roles.catalog";

describe("the custom role catalogue", () => {
  it("ticking a permission ticks what it needs, transitively (Redact needs Edit, which needs View)", () => {
    expect(withNeeds(["dataroom.redact"])).toEqual(["dataroom.view", "dataroom.edit", "dataroom.redact"]);
    expect(withNeeds(["dataroom.manage_members"])).toEqual(["dataroom.view", "dataroom.invite", "dataroom.manage_members"]);
  });

  it("unticking a permission unticks everything that needs it and leaves the rest", () => {
    expect(withoutDependents(["dataroom.view", "dataroom.edit", "dataroom.redact", "team.activity.view"], "dataroom.view")).toEqual(["team.activity.view"]);
    expect(withoutDependents(["dataroom.view", "dataroom.edit", "dataroom.redact", "dataroom.comment"], "dataroom.edit")).toEqual(["dataroom.view", "dataroom.comment"]);
  });

  it("names the first permission whose need is missing", () => {
    expect(missingNeed(["dataroom.view", "dataroom.comment"])).toBeNull();
    expect(missingNeed(["dataroom.view", "dataroom.redact"])).toEqual({ permission: "dataroom.redact", needs: "dataroom.edit" });
  });

  it("turns a role into the room role member with overrides that make its permissions exactly the role's, and no room without View", () => {
    expect(roomGrantOf(["dataroom.view", "dataroom.comment"])).toEqual({ role: "member", overrides: { download: false, upload: false, edit: false } });
    expect(roomGrantOf(["dataroom.view", "dataroom.download", "dataroom.upload", "dataroom.edit", "dataroom.comment", "dataroom.share"])).toEqual({ role: "member", overrides: { share: true } });
    expect(roomGrantOf(["team.activity.view"])).toBeNull();
  });

  it("gives a custom role's holder what every member has in the team, plus the team permissions it lists", () => {
    expect(teamPermissionsOfCustomRole(["dataroom.view"])).toEqual(["team.view", "team.rooms.view"]);
    expect(teamPermissionsOfCustomRole(["dataroom.view", "team.activity.view"])).toEqual(["team.view", "team.rooms.view", "team.activity.view"]);
  });
});
