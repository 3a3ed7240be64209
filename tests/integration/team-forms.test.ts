import { describe, expect, it } from "vitest";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { teamOfFour } from "./team-helpers";

/**
 * Forms and receive pages in a team's workspace (issue 42, ADR 041): made in the team, worked on by the team's people
 * by their place in it (owner and admins everything, members view and edit, billing nothing, a
 * custom role what its Forms permissions say), on the creator's plan; everyone else 404.
 */

type FormView = { id: string; title: string; revision: number };

async function teamWithForm() {
  const { owner, teamId, member, reviewer, billing } = await teamOfFour("Intake team", ["dataroom.view", "dataroom.comment", "form.view", "receive.view"]);
  const made = await send(owner.client, "POST", `/api/forms?team=${teamId}`, { title: "Client intake" });
  expect(made.status, await made.clone().text()).toBe(201);
  const form = (await made.json<{ form: FormView }>()).form;
  return { owner, teamId, member, reviewer, billing, form };
}

const draft = (person: Person, form: FormView, revision: number, title: string) =>
  send(person.client, "PUT", `/api/forms/${form.id}/draft`, { revision, title, description: "", fields: [{ id: "q1", type: "short_text", label: "Company", required: true }], rules: [] });

describe("forms in a team's workspace", () => {
  it("the team's people work on its form by their place in the team: members edit but do not delete, a Reviewer only reads, billing and outsiders do not find it", async () => {
    const { owner, teamId, member, reviewer, billing, form } = await teamWithForm();
    expect(await countWhere("select count(*) as n from forms where id = ? and team_id = ?", form.id, teamId)).toBe(1);

    // A member (on Free: the form is on its creator's Business plan) reads and edits it.
    expect((await get(`/api/forms/${form.id}`, member.client)).status).toBe(200);
    const saved = await draft(member, form, form.revision, "Client intake (v2)");
    expect(saved.status, await saved.clone().text()).toBe(200);
    const memberDelete = await send(member.client, "DELETE", `/api/forms/${form.id}`);
    expect(memberDelete.status).toBe(403);
    expect((await memberDelete.json<{ message: string }>()).message).toContain("form.delete");

    // The Reviewer (view and comment) reads the form and its submissions, and changes nothing.
    expect((await get(`/api/forms/${form.id}`, reviewer.client)).status).toBe(200);
    expect((await get(`/api/forms/${form.id}/submissions`, reviewer.client)).status).toBe(200);
    const refused = await draft(reviewer, form, form.revision + 1, "Mine now");
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("You don't have the required permission: form.edit. Ask the team's owner or an admin.");
    expect((await send(reviewer.client, "POST", `/api/forms/${form.id}/publish`)).status).toBe(403);
    expect((await send(reviewer.client, "PATCH", `/api/forms/${form.id}/settings`, { isOpen: false })).status).toBe(403);
    expect((await send(reviewer.client, "DELETE", `/api/forms/${form.id}`)).status).toBe(403);

    // Billing people and outsiders cannot tell it exists; nothing changed for them.
    const outsider = await signedIn({ tier: "business" });
    for (const person of [billing, outsider]) {
      expect((await get(`/api/forms/${form.id}`, person.client)).status).toBe(404);
      expect((await send(person.client, "DELETE", `/api/forms/${form.id}`)).status).toBe(404);
    }
    expect(await countWhere("select count(*) as n from forms where id = ? and title = 'Client intake (v2)' and deleted_at is null", form.id)).toBe(1);

    // The owner deletes it (to the trash).
    expect((await send(owner.client, "DELETE", `/api/forms/${form.id}`)).status).toBe(204);
    expect(await countWhere("select count(*) as n from forms where id = ? and deleted_at is not null", form.id)).toBe(1);
  });

  it("lists each workspace's own forms, and makes a form in a team only for someone who may edit its forms, on their own plan", async () => {
    const { owner, teamId, member, reviewer, billing, form } = await teamWithForm();
    await send(owner.client, "POST", "/api/forms", { title: "My own" });
    const titles = async (person: Person, workspace: string) => (await (await get(`/api/forms?workspace=${workspace}`, person.client)).json<{ forms: FormView[] }>()).forms.map((row) => row.title).sort();
    expect(await titles(owner, teamId)).toEqual(["Client intake"]);
    expect(await titles(owner, "personal")).toEqual(["My own"]);
    expect(await titles(reviewer, teamId)).toEqual(["Client intake"]);
    expect(await titles(billing, teamId)).toEqual([]);
    expect((await get(`/api/forms?workspace=${teamId}`, (await signedIn()).client)).status).toBe(404);

    // The Reviewer may not make the team's forms; a member on Free may edit them but makes none on a plan without forms.
    const byReviewer = await send(reviewer.client, "POST", `/api/forms?team=${teamId}`, {});
    expect(byReviewer.status).toBe(403);
    expect((await byReviewer.json<{ message: string }>()).message).toContain("form.edit");
    expect((await send(member.client, "POST", `/api/forms?team=${teamId}`, {})).status).toBe(403);
    expect(await countWhere("select count(*) as n from forms where team_id = ?", teamId)).toBe(1);
    expect(form.title).toBe("Client intake");
  });
});

describe("moving a form into a team", () => {
  it("the maker moves a form of no team into a team where they edit forms, and the team's people find it; nobody else may, and only once", async () => {
    const { owner, teamId, member } = await teamWithForm();
    const made = await send(owner.client, "POST", "/api/forms", { title: "Old intake" });
    const formId = (await made.json<{ form: FormView }>()).form.id;
    expect((await get(`/api/forms/${formId}`, member.client)).status).not.toBe(200);

    // Someone else cannot tell the form exists; a team the maker is not in cannot receive it.
    const stranger = await signedIn({ tier: "business" });
    expect((await send(stranger.client, "POST", `/api/forms/${formId}/team`, { teamId })).status).toBe(404);
    const strangerTeam = (await (await send(stranger.client, "POST", "/api/teams", { name: "Theirs" })).json<{ team: { id: string } }>()).team.id;
    expect((await send(owner.client, "POST", `/api/forms/${formId}/team`, { teamId: strangerTeam })).status).toBe(404);
    expect(await countWhere("select count(*) as n from forms where id = ? and team_id is not null", formId)).toBe(0);

    const moved = await send(owner.client, "POST", `/api/forms/${formId}/team`, { teamId });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await get(`/api/forms/${formId}`, member.client)).status).toBe(200);
    expect((await get(`/api/forms?workspace=${teamId}`, member.client)).status).toBe(200);
    const again = await send(owner.client, "POST", `/api/forms/${formId}/team`, { teamId });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe("This form is already in a team's workspace.");
  });
});

describe("receive pages in a team's workspace", () => {
  it("are made in the team into its room, listed in its workspace, and worked on by the team's people by their place: members change but do not delete, a Reviewer only reads, billing and outsiders 404", async () => {
    const { owner, teamId, member, reviewer, billing } = await teamWithForm();
    const roomId = (await (await send(owner.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Intake room" })).json<{ dataroom: { id: string } }>()).dataroom.id;
    const { rootFolderId } = await (await get(`/api/datarooms/${roomId}`, owner.client)).json<{ rootFolderId: string }>();
    const made = await send(owner.client, "POST", `/api/receive-pages?team=${teamId}`, { kind: "simple", title: "Client documents", folderId: rootFolderId });
    expect(made.status, await made.clone().text()).toBe(201);
    const pageId = (await made.json<{ page: { id: string } }>()).page.id;
    expect(await countWhere("select count(*) as n from receive_pages where id = ? and team_id = ?", pageId, teamId)).toBe(1);

    const titles = async (person: Person, workspace: string) => (await (await get(`/api/receive-pages?workspace=${workspace}`, person.client)).json<{ pages: { title: string }[] }>()).pages.map((page) => page.title);
    expect(await titles(member, teamId)).toEqual(["Client documents"]);
    expect(await titles(owner, "personal")).toEqual([]);
    expect(await titles(billing, teamId)).toEqual([]);

    expect((await send(member.client, "PATCH", `/api/receive-pages/${pageId}`, { title: "Client documents 2026" })).status).toBe(200);
    expect((await send(member.client, "DELETE", `/api/receive-pages/${pageId}`)).status).toBe(403);
    expect((await get(`/api/receive-pages/${pageId}`, reviewer.client)).status).toBe(200);
    expect((await get(`/api/receive-pages/${pageId}/submissions`, reviewer.client)).status).toBe(200);
    const refused = await send(reviewer.client, "PATCH", `/api/receive-pages/${pageId}`, { title: "Mine" });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("You don't have the required permission: receive.edit. Ask the team's owner or an admin.");
    expect((await send(reviewer.client, "POST", `/api/receive-pages?team=${teamId}`, { kind: "simple", title: "x", folderId: rootFolderId })).status).toBe(403);
    const outsider = await signedIn({ tier: "business" });
    for (const person of [billing, outsider]) {
      expect((await get(`/api/receive-pages/${pageId}`, person.client)).status).toBe(404);
      expect((await send(person.client, "DELETE", `/api/receive-pages/${pageId}`)).status).toBe(404);
    }
    expect(await countWhere("select count(*) as n from receive_pages where id = ? and title = 'Client documents 2026'", pageId)).toBe(1);
    expect((await send(owner.client, "DELETE", `/api/receive-pages/${pageId}`)).status).toBe(204);
    expect(await countWhere("select count(*) as n from receive_pages where id = ?", pageId)).toBe(0);
  });

  it("the maker moves a page of no team into a team, once; someone else cannot", async () => {
    const { owner, teamId, member } = await teamWithForm();
    const inbox = (await (await get("/api/user/default-folders", owner.client)).json<{ folders: { label: string; uid: string }[] }>()).folders.find((folder) => folder.label === "Inbox")!.uid;
    const made = await send(owner.client, "POST", "/api/receive-pages", { kind: "simple", title: "Old page", folderId: inbox });
    expect(made.status, await made.clone().text()).toBe(201);
    const pageId = (await made.json<{ page: { id: string } }>()).page.id;
    expect((await send(member.client, "POST", `/api/receive-pages/${pageId}/team`, { teamId })).status).toBe(404);
    const moved = await send(owner.client, "POST", `/api/receive-pages/${pageId}/team`, { teamId });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await get(`/api/receive-pages/${pageId}`, member.client)).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/receive-pages/${pageId}/team`, { teamId })).status).toBe(409);
  });
});
