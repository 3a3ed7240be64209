import { z } from "zod";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { csvFileName, csvLine } from "~/lib/csv";
import { parseInput } from "~/lib/validation";
import { listPageTime, sumPageTimeByFile } from "./page-time.queries.server";
import { countOpeningsByDay, countOpeningsByFile, countOpeningsByPerson, listLiveRoomFiles, listOpenedPairs, type OpeningCounts } from "./analytics.queries.server";
import { ANALYTICS_RANGES } from "./analytics.constants";
import { ROLE_LABELS } from "./datarooms.permissions";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { listDataroomMembers } from "./members.queries.server";
import { roomAuthority } from "./room-authority.server";

/**
 * A data room's analytics (issue 20 "Analytics"): views and downloads per file, per person and per
 * day, and who has not opened what yet. Counted from the room's audit log, where the server
 * recorded every opening before its bytes left, so the numbers cannot be forged from a browser.
 * Needs `view_analytics` and the room owner's plan with `analytics`.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** The files and people an analytics page covers (a room bigger than this shows the first by name). */
const FILES_MAX = 500;

export const analyticsQuerySchema = z.object({
  days: z.coerce
    .number()
    .refine((value) => (ANALYTICS_RANGES as readonly number[]).includes(value))
    .catch(30)
    .default(30),
});

export type FileStats = { id: string; name: string; views: number; downloads: number; people: number; lastAt: number | null };
export type PersonStats = { id: string; name: string; email: string; role: string; roleLabel: string; views: number; downloads: number; opened: number; lastAt: number | null; notOpened: { id: string; name: string }[] };

export type RoomAnalytics = {
  room: Pick<DataroomSummary, "id" | "name">;
  days: number;
  totals: { views: number; downloads: number; viewers: number; files: number };
  daily: { day: string; views: number; downloads: number }[];
  files: FileStats[];
  people: PersonStats[];
  /** Time per PDF page, from the room's viewer: each file with recorded reading time, most read first. */
  pageTime: FilePageTime[];
};

export type FilePageTime = { id: string; name: string; totalMs: number; people: number; pages: { page: number; ms: number; people: number }[] };

/** The room, when the caller may see its analytics. */
export async function requireAnalyticsAccess(ctx: ServiceContext, userId: string, roomId: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, roomId, "view_analytics");
  requireFeature(await loadMemberAccess(ctx, room.owner.id), "analytics");
  return room;
}

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export async function getRoomAnalytics(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<RoomAnalytics> {
  const room = await requireAnalyticsAccess(ctx, userId, roomId);
  const { days } = parseInput(analyticsQuerySchema, rawQuery ?? {});
  // The last few hundred milliseconds of openings are in the counts too.
  await roomAuthority(ctx, room.id).flushAudit();
  const today = Math.floor(ctx.now().getTime() / DAY_MS);
  const firstDay = today - days + 1;
  const [byDay, byFile, byPerson, pairs, liveFiles, members, pageRows] = await Promise.all([
    countOpeningsByDay(ctx.db, room.id, firstDay * DAY_MS),
    countOpeningsByFile(ctx.db, room.id),
    countOpeningsByPerson(ctx.db, room.id),
    listOpenedPairs(ctx.db, room.id),
    listLiveRoomFiles(ctx.db, room.id, FILES_MAX),
    listDataroomMembers(ctx.db, room.id),
    sumPageTimeByFile(ctx.db, room.id),
  ]);

  const perDay = new Map(byDay.map((row) => [row.day, row]));
  const daily = Array.from({ length: days }, (_, index) => {
    const day = firstDay + index;
    const row = perDay.get(day);
    return { day: dayText(day), views: row?.views ?? 0, downloads: row?.downloads ?? 0 };
  });

  const fileCounts = new Map<string, OpeningCounts>(byFile.map((row) => [row.id, row]));
  const files: FileStats[] = liveFiles
    .map((file) => {
      const counts = fileCounts.get(file.id);
      return { id: file.id, name: file.name, views: counts?.views ?? 0, downloads: counts?.downloads ?? 0, people: counts?.people ?? 0, lastAt: counts?.lastAt ?? null };
    })
    .sort((a, b) => b.views + b.downloads - (a.views + a.downloads) || a.name.localeCompare(b.name));

  const opened = new Map<string, Set<string>>();
  for (const pair of pairs) {
    const set = opened.get(pair.actorId) ?? new Set<string>();
    set.add(pair.fileId);
    opened.set(pair.actorId, set);
  }
  const personCounts = new Map<string, OpeningCounts>(byPerson.map((row) => [row.id, row]));
  const people: PersonStats[] = members.map((member) => {
    const counts = personCounts.get(member.userId);
    const theirs = opened.get(member.userId) ?? new Set<string>();
    return {
      id: member.userId,
      name: member.name,
      email: member.email,
      role: member.role,
      roleLabel: ROLE_LABELS[member.role],
      views: counts?.views ?? 0,
      downloads: counts?.downloads ?? 0,
      opened: liveFiles.filter((file) => theirs.has(file.id)).length,
      lastAt: counts?.lastAt ?? null,
      notOpened: liveFiles.filter((file) => !theirs.has(file.id)),
    };
  });

  const names = new Map(liveFiles.map((file) => [file.id, file.name]));
  const pagesByFile = new Map<string, FilePageTime>();
  for (const row of pageRows) {
    const name = names.get(row.fileId);
    if (name === undefined) continue;
    const entry = pagesByFile.get(row.fileId) ?? { id: row.fileId, name, totalMs: 0, people: 0, pages: [] };
    entry.totalMs += row.ms;
    entry.people = Math.max(entry.people, row.people);
    entry.pages.push({ page: row.page, ms: row.ms, people: row.people });
    pagesByFile.set(row.fileId, entry);
  }
  const pageTime = [...pagesByFile.values()].sort((a, b) => b.totalMs - a.totalMs || a.name.localeCompare(b.name));

  return {
    room: { id: room.id, name: room.name },
    days,
    totals: {
      views: daily.reduce((sum, day) => sum + day.views, 0),
      downloads: daily.reduce((sum, day) => sum + day.downloads, 0),
      viewers: new Set(pairs.map((pair) => pair.actorId)).size,
      files: liveFiles.length,
    },
    daily,
    files,
    people,
    pageTime,
  };
}

const when = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** GET /api/datarooms/{id}/analytics/export?kind=files|people|pages: the page's tables as CSV (pages: every person's seconds per page). */
export async function exportRoomAnalyticsCsv(ctx: ServiceContext, userId: string, roomId: unknown, kind: unknown): Promise<{ filename: string; csv: string }> {
  const analytics = await getRoomAnalytics(ctx, userId, roomId, {});
  if (kind === "pages") {
    const people = new Map(analytics.people.map((person) => [person.id, person]));
    const names = new Map(analytics.files.map((file) => [file.id, file.name]));
    const rows: (string | number | null)[][] = [["file", "file id", "page", "person", "e-mail", "seconds on screen"]];
    for (const row of await listPageTime(ctx.db, analytics.room.id)) {
      const name = names.get(row.fileId);
      if (name === undefined) continue;
      const person = people.get(row.userId);
      rows.push([name, row.fileId, row.page, person?.name ?? "Former member", person?.email ?? null, Math.round(row.ms / 1000)]);
    }
    return { filename: csvFileName(analytics.room.name, "page-time"), csv: rows.map(csvLine).join("") };
  }
  const isPeople = kind === "people";
  const rows: (string | number | null)[][] = isPeople
    ? [
        ["person", "e-mail", "role", "views", "downloads", "files opened", "files not opened yet", "last opened (UTC)"],
        ...analytics.people.map((person) => [person.name, person.email, person.roleLabel, person.views, person.downloads, person.opened, person.notOpened.length, when(person.lastAt)]),
      ]
    : [
        ["file", "file id", "views", "downloads", "people", "last opened (UTC)"],
        ...analytics.files.map((file) => [file.name, file.id, file.views, file.downloads, file.people, when(file.lastAt)]),
      ];
  return { filename: csvFileName(analytics.room.name, isPeople ? "people" : "files"), csv: rows.map(csvLine).join("") };
}
