import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { csvFileName, csvLine } from "~/lib/csv";
import { parseInput } from "~/lib/validation";
import { auditHash, type AuditFields } from "./audit-chain";
import { auditRoom } from "./audit-record.server";
import { AUDIT_GENESIS_HASH, AUDIT_PAGE_SIZE, auditActionLabel } from "./audit.constants";
import { checkpointMark } from "./audit-retention.server";
import { findAuditCheckpoint, listAuditActors, listAuditEntries, readAuditAfter, type AuditFilters, type AuditRow } from "./audit.queries.server";
import { auditQuerySchema } from "./datarooms.schema";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { roomAuthority } from "./room-authority.server";

/**
 * Reading a data room's audit log (issue 20, QUALITY S22): the activities page's list with its
 * filters, verifying the hash chain, and the CSV export. Recording is audit-record.server.ts.
 * Reading needs the room owner's plan to include `audit_logs` and the reader to hold
 * `view_audit_log`.
 */

/** The room, when the caller may read its log: `view_audit_log`, and the owner's plan has `audit_logs`. */
export async function requireAuditAccess(ctx: ServiceContext, userId: string, roomId: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, roomId, "view_audit_log");
  const access = await loadMemberAccess(ctx, room.owner.id);
  requireFeature(access, "audit_logs");
  return room;
}

/** An entry as the page and the API show it: its recorded fields, its place in the log and its words. */
export type AuditEntryView = AuditFields & { seq: number; actionLabel: string };

function toView({ seq, at, actorId, actorEmail, action, outcome, targetType, targetId, targetName, detail, ip, userAgent }: AuditRow): AuditEntryView {
  return { seq, at, actorId, actorEmail, action, actionLabel: auditActionLabel(action), outcome, targetType, targetId, targetName, detail, ip, userAgent };
}

function filtersOf(query: { person?: string; action?: string; target?: string; from?: number; to?: number }): AuditFilters {
  return { actorId: query.person, action: query.action, targetId: query.target, from: query.from, to: query.to };
}

export type AuditPage = {
  room: DataroomSummary;
  entries: AuditEntryView[];
  people: { id: string; email: string | null }[];
  nextCursor: string | null;
};

/** GET /api/datarooms/{id}/audit and the activities page: newest first, filtered, 100 a page. */
export async function listRoomAudit(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<AuditPage> {
  const room = await requireAuditAccess(ctx, userId, roomId);
  const query = parseInput(auditQuerySchema, rawQuery);
  // What happened a moment ago is in the list: the object copies what waits first.
  await roomAuthority(ctx, room.id).flushAudit();
  const [rows, actors] = await Promise.all([
    listAuditEntries(ctx.db, room.id, filtersOf(query), query.cursor ?? null, AUDIT_PAGE_SIZE + 1),
    listAuditActors(ctx.db, room.id),
  ]);
  const visible = rows.slice(0, AUDIT_PAGE_SIZE);
  return {
    room,
    entries: visible.map(toView),
    people: actors.map((actor) => ({ id: actor.actorId, email: actor.actorEmail })),
    nextCursor: rows.length > AUDIT_PAGE_SIZE ? String(visible.at(-1)!.seq) : null,
  };
}

export type AuditVerification =
  | {
      ok: true;
      /** Entries the room has recorded (the newest's seq). */
      entries: number;
      /** Entries still in the log (all of them unless retention removed the oldest). */
      kept: number;
      headHash: string;
      /** Retention removed the oldest entries: the log is complete from this entry on. */
      completeFrom: { seq: number; at: string | null; prunedAt: string; cutoffAt: string } | null;
    }
  | { ok: false; entries: number; brokenAt: number; message: string };

/** Entries read per round while verifying or exporting. */
const WALK_SIZE = 500;

/**
 * POST /api/datarooms/{id}/audit/verify: recomputes every entry's hash in order and checks each
 * links to the one before, that none is missing, and that the last is the one the room's object
 * appended last. After retention removed the oldest entries, the walk starts from the room's
 * checkpoint, which counts only if a pruning entry in the chain names it (ADR 039). Names the
 * first entry where the chain breaks.
 */
export async function verifyRoomAudit(ctx: ServiceContext, userId: string, roomId: unknown): Promise<AuditVerification> {
  const room = await requireAuditAccess(ctx, userId, roomId);
  const [head, checkpoint] = await Promise.all([roomAuthority(ctx, room.id).auditHead(), findAuditCheckpoint(ctx.db, room.id)]);
  let previous = checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
  const mark = checkpoint ? checkpointMark(checkpoint.seq, checkpoint.hash) : null;
  let attested = !checkpoint;
  let firstAt: number | null = null;
  for (;;) {
    const rows = await readAuditAfter(ctx.db, room.id, {}, previous.seq, WALK_SIZE);
    for (const row of rows) {
      if (row.seq !== previous.seq + 1) return broken(previous.seq, previous.seq + 1, `Entry #${previous.seq + 1} is missing: the log jumps from #${previous.seq} to #${row.seq}.`);
      if (row.prevHash !== previous.hash) return broken(previous.seq, row.seq, `Entry #${row.seq} does not follow entry #${previous.seq}: the link between them was changed.`);
      if (auditHash(room.id, row.seq, row.prevHash, row) !== row.hash) return broken(previous.seq, row.seq, `Entry #${row.seq} was changed after it was recorded.`);
      if (!attested && row.action === "audit.prune" && row.detail?.includes(mark!)) attested = true;
      firstAt ??= row.at;
      previous = { seq: row.seq, hash: row.hash };
    }
    if (rows.length < WALK_SIZE) break;
  }
  if (!attested) {
    return broken(checkpoint!.seq, checkpoint!.seq, `The log starts after entry #${checkpoint!.seq}, but no pruning recorded in the log removed the entries before it: they were removed outside the retention policy.`);
  }
  if (previous.seq < head.seq) return broken(previous.seq, previous.seq + 1, `Entries after #${previous.seq} are missing: the room recorded ${head.seq}.`);
  if (previous.hash !== head.hash) return broken(previous.seq, previous.seq, `Entry #${previous.seq} is not the entry the room recorded last.`);
  ctx.logger.info("audit log verified", { roomId: room.id, entries: previous.seq });
  return {
    ok: true,
    entries: previous.seq,
    kept: previous.seq - (checkpoint?.seq ?? 0),
    headHash: previous.hash,
    completeFrom: checkpoint
      ? { seq: checkpoint.seq + 1, at: firstAt === null ? null : new Date(firstAt).toISOString(), prunedAt: checkpoint.prunedAt.toISOString(), cutoffAt: checkpoint.cutoffAt.toISOString() }
      : null,
  };
}

function broken(checked: number, at: number, message: string): AuditVerification {
  return { ok: false, entries: checked, brokenAt: at, message };
}

const CSV_COLUMNS = ["seq", "time (UTC)", "person", "action", "outcome", "target type", "target", "target id", "detail", "ip", "user agent", "hash"] as const;

/**
 * GET /api/datarooms/{id}/audit.csv: the filtered log, oldest first, streamed 500 rows at a time
 * (never the whole log in memory). The export itself is recorded.
 */
export async function exportRoomAuditCsv(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const room = await requireAuditAccess(ctx, userId, roomId);
  const query = parseInput(auditQuerySchema, rawQuery);
  await auditRoom(ctx, room.id, userId, { action: "audit.export", target: { type: "room", id: room.id, name: room.name } });
  await roomAuthority(ctx, room.id).flushAudit();
  const filters = filtersOf(query);
  const encoder = new TextEncoder();
  let after = 0;
  let isFirst = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (isFirst) {
        isFirst = false;
        controller.enqueue(encoder.encode(csvLine([...CSV_COLUMNS])));
        return;
      }
      const rows = await readAuditAfter(ctx.db, room.id, filters, after, WALK_SIZE);
      if (rows.length === 0) return controller.close();
      after = rows.at(-1)!.seq;
      const lines = rows.map((row) =>
        csvLine([
          row.seq,
          new Date(row.at).toISOString(),
          row.actorEmail,
          auditActionLabel(row.action),
          row.outcome,
          row.targetType,
          row.targetName,
          row.targetId,
          row.detail,
          row.ip,
          row.userAgent,
          row.hash,
        ]),
      );
      controller.enqueue(encoder.encode(lines.join("")));
      if (rows.length < WALK_SIZE) controller.close();
    },
  });
  return { filename: csvFileName(room.name, "audit-log"), body };
}
