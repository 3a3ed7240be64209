import { expect } from "vitest";
import { send, signedIn, type Person } from "./dataroom-helpers";
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

/**
 * A Business owner's team with a member and a Reviewer (both on Free: the team's things are on
 * their makers' and owner's plans) and a billing person; the Reviewer holds the custom role
 * "Reviewer" made of `reviewerPermissions`.
 */
export async function teamOfFour(name: string, reviewerPermissions: string[]) {
  const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
  const created = await send(owner.client, "POST", "/api/teams", { name });
  const teamId = (await created.json<{ team: { id: string } }>()).team.id;
  const member = await signedIn({ tier: "free", name: "Mia Member" });
  const reviewer = await signedIn({ tier: "free", name: "Rae Reviewer" });
  const billing = await signedIn({ tier: "business", name: "Bill Billing" });
  await join(owner, teamId, member);
  await join(owner, teamId, reviewer);
  await join(owner, teamId, billing, "billing");
  const role = await send(owner.client, "POST", `/api/teams/${teamId}/roles`, { name: "Reviewer", permissions: reviewerPermissions });
  expect(role.status, await role.clone().text()).toBe(201);
  const roleId = (await role.json<{ role: { id: string } }>()).role.id;
  expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${reviewer.id}`, { role: "member", customRoleId: roleId })).status).toBe(200);
  return { owner, teamId, member, reviewer, billing, roleId };
}
