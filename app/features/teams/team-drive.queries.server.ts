import { and, eq, notInArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { folders, spaceMembers, spaces, type SpaceRole } from "~/db/schema";

/**
 * A team's drive (issue 42, ADR 042): a file space whose id is the team's, owned by the team's
 * owner (their plan's storage applies), with a root named after the team. Its members are written
 * from the team's people by `team-drive.server.ts`, never by hand.
 */

/** The space and its root, each only if missing (the unique root per space makes a second call a no-op). */
function driveInserts(db: Database, drive: { teamId: string; ownerId: string; name: string; now: Date }) {
  const { teamId, ownerId, name, now } = drive;
  return [
    db.insert(spaces).values({ id: teamId, kind: "team", ownerId, name, createdAt: now, updatedAt: now }).onConflictDoNothing(),
    db
      .insert(folders)
      .values({ id: crypto.randomUUID(), spaceId: teamId, parentId: null, kind: "root", label: name, createdBy: ownerId, createdAt: now, updatedAt: now })
      .onConflictDoNothing(),
  ] as const;
}

/**
 * Makes the drive exist and its members exactly `members` (everyone else in the space is taken
 * out), in one batch: run after every change of who is in the team and how.
 */
export async function writeTeamDrive(db: Database, drive: { teamId: string; ownerId: string; name: string; now: Date }, members: readonly { userId: string; role: SpaceRole }[]): Promise<void> {
  const keep = members.map((member) => member.userId);
  await db.batch([
    ...driveInserts(db, drive),
    db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, drive.teamId), keep.length > 0 ? notInArray(spaceMembers.userId, keep) : undefined)),
    ...members.map((member) =>
      db
        .insert(spaceMembers)
        .values({ spaceId: drive.teamId, userId: member.userId, role: member.role, createdAt: drive.now })
        .onConflictDoUpdate({ target: [spaceMembers.spaceId, spaceMembers.userId], set: { role: member.role } }),
    ),
  ]);
}

/** The drive's root folder, if the drive exists. */
export async function findTeamDriveRoot(db: Database, teamId: string): Promise<string | undefined> {
  const row = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.spaceId, teamId), eq(folders.kind, "root")))
    .get();
  return row?.id;
}

/** The drive's name and root follow the team's name. */
export function renameTeamDriveStatements(db: Database, teamId: string, name: string, now: Date) {
  return [
    db.update(spaces).set({ name, updatedAt: now }).where(and(eq(spaces.id, teamId), eq(spaces.kind, "team"))),
    db.update(folders).set({ label: name, updatedAt: now }).where(and(eq(folders.spaceId, teamId), eq(folders.kind, "root"))),
  ] as const;
}

/** The drive's storage counts against the new owner's plan once the team is handed over. */
export function transferTeamDriveStatement(db: Database, teamId: string, to: string, now: Date) {
  return db.update(spaces).set({ ownerId: to, updatedAt: now }).where(and(eq(spaces.id, teamId), eq(spaces.kind, "team")));
}
