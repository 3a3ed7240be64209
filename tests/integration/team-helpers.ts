import { expect } from "vitest";
import { send, type Person } from "./dataroom-helpers";
import { mailsTo } from "./helpers";

/** Team helpers shared by the teams tests: inviting, reading the mailed link, joining with it. */

export async function invite(owner: Person, teamId: string, emails: string | string[], role = "member") {
  return send(owner.client, "POST", `/api/teams/${teamId}/invitations`, { emails, role });
}

export async function tokenMailedTo(email: string): Promise<string> {
  const mail = (await mailsTo(email)).filter((item) => item.template === "team-invitation").at(-1);
  expect(mail, `a team invitation to ${email}`).toBeDefined();
  return mail!.textBody.match(/\/invite\/([A-Za-z0-9_-]{43})/)![1]!;
}

/** The person joins the way anyone does: invited, then accepting the mailed link. */
export async function join(owner: Person, teamId: string, person: Person, role = "member") {
  expect((await invite(owner, teamId, person.email, role)).status).toBe(201);
  const accepted = await send(person.client, "POST", "/api/invitations/accept", { token: await tokenMailedTo(person.email) });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  expect(await accepted.json()).toEqual({ teamId });
}
