import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import type { DataroomRole } from "~/db/schema";
import { chainEntry, type AuditFields, type ChainedEntry } from "~/features/datarooms/audit-chain";
import { AUDIT_GENESIS_HASH } from "~/features/datarooms/audit.constants";
import { insertAuditEntries } from "~/features/datarooms/audit.queries.server";
import { effectivePermissions, type DataroomPermission } from "~/features/datarooms/datarooms.permissions";
import { protectedPermissions, readProtection, type RoomProtection } from "~/features/datarooms/protection";
import {
  acceptInvitationRows,
  deleteDataroomMember,
  placeDataroomMemberRows,
  type PlacedRole,
  loadRoomRoster,
  loadRoomSecurity,
  roomCopyDatabase,
  transferDataroomOwnership,
  updateDataroomMemberRole,
  writeMemberAccessExpiry,
  writeMemberOverrides,
  writeRoomIpAllowlist,
  writeRoomProtection,
  writeRoomTwoFactorRequirement,
} from "~/features/datarooms/members.queries.server";
import {
  BREAKER_LIMIT,
  BREAKER_WINDOW_MS,
  clientMessageSchema,
  KEEPALIVE_REQUEST,
  KEEPALIVE_RESPONSE,
  PERMISSION_DEBOUNCE_MS,
  REALTIME_NAME_HEADER,
  REALTIME_USER_HEADER,
  roomEventSchema,
  type RoomDecision,
  type RoomEvent,
  type ServerMessage,
} from "./data-room.protocol";

type ConnectionState = { userId: string; name: string; since: number };

/**
 * One SQLite-backed Durable Object per data room: the AUTHORITY for who is in the room and what
 * each person may do (ADR 018). Its own SQLite holds the roster (role and permission overrides per
 * person); D1's dataroom_members is the copy for lists and joins.
 *
 * - Decisions (`decide`) read the object's SQLite: correct right after any change, and the same
 *   after hibernation or eviction (nothing lives only in memory).
 * - Membership changes (join, remove, role, transfer) write D1 inside the object and then its own
 *   state, one at a time (a promise chain serialises them), so lists agree at once.
 * - Permission overrides apply to the object's state at once; the D1 copy and the broadcast to the
 *   sockets are debounced 300 ms (an alarm): a burst of changes is one D1 batch and one broadcast.
 *   More than 5 updates in 10 s trip a circuit breaker: further updates are refused until the
 *   window passes. The window lives in SQLite too.
 * - A roster is loaded once from the D1 copy (a room created before the object existed, or a new
 *   room), then kept here.
 *
 * - The room's audit log is appended here (`record`), one entry after another with nothing in
 *   between, so its hash chain has one order; entries wait in SQLite and are copied to D1's
 *   dataroom_audit_log by the same alarm (at most 300 ms later), in one batch.
 *
 * Sockets are authenticated (session, membership, short-lived token) by workers/realtime.ts before
 * they reach the object, which checks membership once more and tags each socket with its person,
 * so a removed person's sockets are closed at once. Callers pass the clock (`now`) in, so tests
 * control it.
 */
export class DataRoom extends Server<Env> {
  static override options = { hibernate: true };

  /** Serialises the changes (D1 writes happen inside); decisions never wait on it. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The object's own tables, before any call (RPC calls do not run onStart).
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS members (user_id TEXT PRIMARY KEY, role TEXT NOT NULL, overrides TEXT NOT NULL DEFAULT '{}')`);
    sql.exec(`CREATE TABLE IF NOT EXISTS pending (user_id TEXT PRIMARY KEY)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS updates (at INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS audit_pending (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL)`);
    // Time-limited access (added after rooms existed): the column joins older objects' tables.
    if (!sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('members')`).toArray().some((column) => column.name === "expires_at")) {
      sql.exec(`ALTER TABLE members ADD COLUMN expires_at INTEGER`);
    }
  }

  override onStart(): void {
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(KEEPALIVE_REQUEST, KEEPALIVE_RESPONSE));
  }

  // ---- sockets -------------------------------------------------------------------------------

  override async onConnect(connection: Connection<ConnectionState>, context: ConnectionContext): Promise<void> {
    const userId = context.request.headers.get(REALTIME_USER_HEADER) ?? "";
    const roomId = this.roomIdFromRequest(context.request);
    const decision = userId && roomId ? await this.decide(roomId, userId) : null;
    if (!decision || (decision.accessEndsAt !== null && decision.accessEndsAt <= Date.now())) {
      send(connection, { type: "error", message: "You are not in this data room." });
      connection.close(4403, "not a member");
      return;
    }
    const name = decodeURIComponent(context.request.headers.get(REALTIME_NAME_HEADER) ?? "").slice(0, 100) || "Someone";
    connection.setState({ userId, name, since: Date.now() });
    this.broadcastMessage(this.presenceMessage());
  }

  override onClose(connection: Connection): void {
    this.broadcastMessage(this.presenceMessage(connection.id), [connection.id]);
  }

  override onMessage(connection: Connection, raw: WSMessage): void {
    const parsed = typeof raw === "string" ? clientMessageSchema.safeParse(safeJson(raw)) : null;
    if (!parsed?.success) {
      send(connection, { type: "error", message: "That message is not understood by this data room." });
      return;
    }
    if (parsed.data.type === "presence.request") {
      send(connection, this.presenceMessage());
    }
  }

  // ---- RPC: realtime -------------------------------------------------------------------------

  /** How many sockets are open on this room right now. */
  presence(): { connections: number } {
    return { connections: this.countConnections() };
  }

  /** Who is in the room now: each person once, with their open tabs and since when (the sessions page). */
  sessions(): { userId: string; name: string; connections: number; since: number }[] {
    const people = new Map<string, { userId: string; name: string; connections: number; since: number }>();
    for (const connection of this.getConnections<ConnectionState>()) {
      const state = connection.state;
      if (!state?.userId) continue;
      const seen = people.get(state.userId);
      if (seen) {
        seen.connections++;
        seen.since = Math.min(seen.since, state.since ?? Date.now());
      } else people.set(state.userId, { userId: state.userId, name: state.name, connections: 1, since: state.since ?? Date.now() });
    }
    return [...people.values()].sort((a, b) => a.since - b.since);
  }

  /** Validated fan-out of one event to every socket in the room; returns how many got it. */
  publish(event: RoomEvent): { delivered: number } {
    const parsed = roomEventSchema.parse(event);
    const delivered = this.countConnections();
    this.broadcastMessage({ type: "event", name: parsed.name, data: parsed.data, at: Date.now() });
    this.bump("broadcasts");
    return { delivered };
  }

  // ---- RPC: decisions ------------------------------------------------------------------------

  /** The person's role and effective permissions in the room, or null when they are not in it. */
  async decide(roomId: string, userId: string): Promise<RoomDecision | null> {
    await this.ensureLoaded(roomId);
    this.bump("decisions");
    return this.decisionOf(userId);
  }

  /** Everyone in the room with their role and overrides (the permissions page). */
  async roster(roomId: string): Promise<{ userId: string; role: DataroomRole; overrides: Record<string, boolean> }[]> {
    await this.ensureLoaded(roomId);
    return this.ctx.storage.sql
      .exec<{ user_id: string; role: string; overrides: string }>(`SELECT user_id, role, overrides FROM members`)
      .toArray()
      .map((row) => ({ userId: row.user_id, role: row.role as DataroomRole, overrides: parseOverrides(row.overrides) }));
  }

  // ---- RPC: membership changes (D1 first, inside the object, then the object's state) --------

  /** Uses an invitation (single-use, in one D1 batch) and lets its person in. True when this call used it. */
  join(roomId: string, input: { invitationId: string; tokenHash: string; userId: string; role: DataroomRole; now: number; accessEndsAt?: number | null }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const used = await acceptInvitationRows(this.db(), { id: input.invitationId, tokenHash: input.tokenHash, userId: input.userId, now: new Date(input.now) });
      if (!used) return false;
      // Someone already in the room keeps their role (as the D1 batch does).
      this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO members (user_id, role, overrides, expires_at) VALUES (?, ?, '{}', ?)`, input.userId, input.role, input.accessEndsAt ?? null);
      this.publishInternal("members.changed", {});
      return true;
    });
  }

  /**
   * Places someone by the team whose workspace holds the room, or by a team role used as a
   * template: in with this role and these overrides, or moved to them (never the owner). Their open pages get their permissions again.
   * True when anything changed.
   */
  place(roomId: string, input: { userId: string; role: PlacedRole; overrides: Record<string, boolean>; now: number }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const written = await placeDataroomMemberRows(this.db(), { dataroomId: roomId, userId: input.userId, role: input.role, overrides: input.overrides, now: new Date(input.now) });
      // Compared here too: overrides changed in the last 300 ms may not be in D1 yet.
      const local = this.ctx.storage.sql.exec(
        `INSERT INTO members (user_id, role, overrides, expires_at) VALUES (?, ?, ?, NULL)
         ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, overrides = excluded.overrides
         WHERE members.role <> 'owner' AND (members.role <> excluded.role OR members.overrides <> excluded.overrides)`,
        input.userId,
        input.role,
        JSON.stringify(input.overrides),
      ).rowsWritten;
      if (!written && local === 0) return false;
      this.ctx.storage.sql.exec(`DELETE FROM pending WHERE user_id = ?`, input.userId);
      this.sendPermissions([input.userId]);
      this.publishInternal("members.changed", {});
      return true;
    });
  }

  /** Takes someone out (not the owner): their next decision is "not in the room" and their sockets close. */
  remove(roomId: string, input: { userId: string; now: number; message: string }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const removed = await deleteDataroomMember(this.db(), roomId, input.userId, new Date(input.now));
      const local = this.ctx.storage.sql.exec(`DELETE FROM members WHERE user_id = ? AND role <> 'owner'`, input.userId).rowsWritten > 0;
      this.ctx.storage.sql.exec(`DELETE FROM pending WHERE user_id = ?`, input.userId);
      if (removed || local) {
        for (const connection of this.connectionsOf(input.userId)) {
          send(connection, { type: "removed", message: input.message });
          connection.close(4001, "removed from the data room");
        }
        this.publishInternal("members.changed", {});
      }
      return removed || local;
    });
  }

  /** When someone's access ends (null: never); not for the owner. Their open pages reload their permissions. */
  setAccessEnd(roomId: string, input: { userId: string; endsAt: number | null }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const changed = await writeMemberAccessExpiry(this.db(), roomId, input.userId, input.endsAt === null ? null : new Date(input.endsAt));
      if (changed) {
        this.ctx.storage.sql.exec(`UPDATE members SET expires_at = ? WHERE user_id = ? AND role <> 'owner'`, input.endsAt, input.userId);
        this.sendPermissions([input.userId]);
        this.publishInternal("members.changed", {});
      }
      return changed;
    });
  }

  /** IP restrictions: the ranges the room may be opened from (empty: anywhere), D1 first, then here. */
  setIpAllowlist(roomId: string, input: { ranges: string[]; now: number }): Promise<void> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      await writeRoomIpAllowlist(this.db(), roomId, input.ranges, new Date(input.now));
      this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('ip_allowlist', ?)`, JSON.stringify(input.ranges));
    });
  }

  /**
   * Watermark, download and print protection, D1 first, then here. Everyone's open pages get
   * their permissions again (download protection changes who may download).
   */
  setProtection(roomId: string, input: { protection: RoomProtection; now: number }): Promise<void> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      await writeRoomProtection(this.db(), roomId, input.protection, new Date(input.now));
      this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('protection', ?)`, JSON.stringify(input.protection));
      const everyone = this.ctx.storage.sql.exec<{ user_id: string }>(`SELECT user_id FROM members`).toArray();
      this.sendPermissions(everyone.map((row) => row.user_id));
    });
  }

  /** The 2FA requirement, D1 first, then here. */
  setTwoFactorRequired(roomId: string, input: { required: boolean; now: number }): Promise<void> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      await writeRoomTwoFactorRequirement(this.db(), roomId, input.required, new Date(input.now));
      this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('require_2fa', ?)`, input.required ? "1" : "0");
    });
  }

  /** A new role (not for the owner); overrides stay. */
  setRole(roomId: string, input: { userId: string; role: Exclude<DataroomRole, "owner"> }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const changed = await updateDataroomMemberRole(this.db(), roomId, input.userId, input.role);
      if (changed) {
        this.ctx.storage.sql.exec(`UPDATE members SET role = ? WHERE user_id = ? AND role <> 'owner'`, input.role, input.userId);
        this.sendPermissions([input.userId]);
        this.publishInternal("members.changed", {});
      }
      return changed;
    });
  }

  /** Hands the room to `to` (in the room); `from` stays as an admin. */
  transfer(roomId: string, input: { from: string; to: string; now: number }): Promise<boolean> {
    return this.serialized(async () => {
      await this.ensureLoaded(roomId);
      const moved = await transferDataroomOwnership(this.db(), roomId, input.from, input.to, new Date(input.now));
      if (moved) {
        this.ctx.storage.transactionSync(() => {
          this.ctx.storage.sql.exec(`UPDATE members SET role = 'owner', overrides = '{}', expires_at = NULL WHERE user_id = ?`, input.to);
          this.ctx.storage.sql.exec(`UPDATE members SET role = 'admin' WHERE user_id = ?`, input.from);
        });
        this.sendPermissions([input.from, input.to]);
        this.publishInternal("members.changed", {});
      }
      return moved;
    });
  }

  // ---- RPC: permission overrides (debounced copy, circuit breaker) ---------------------------

  /**
   * Sets (`value` true/false) or clears (`value` null: back to the role's default) one permission
   * of one person. Applied here at once; copied to D1 and broadcast 300 ms after the last change
   * of a burst. Refused while the breaker is open (more than 5 updates in the last 10 s).
   */
  async updatePermission(
    roomId: string,
    input: { userId: string; permission: DataroomPermission; value: boolean | null; now: number },
  ): Promise<{ applied: true; decision: RoomDecision } | { applied: false; reason: "not-member" | "owner" } | { applied: false; reason: "breaker"; retryAfterSeconds: number }> {
    await this.ensureLoaded(roomId);
    const sql = this.ctx.storage.sql;
    sql.exec(`DELETE FROM updates WHERE at <= ?`, input.now - BREAKER_WINDOW_MS);
    const recent = sql.exec<{ n: number; oldest: number | null }>(`SELECT count(*) AS n, min(at) AS oldest FROM updates`).one();
    if (recent.n >= BREAKER_LIMIT) {
      const reopensAt = (recent.oldest ?? input.now) + BREAKER_WINDOW_MS;
      return { applied: false, reason: "breaker", retryAfterSeconds: Math.max(1, Math.ceil((reopensAt - input.now) / 1000)) };
    }
    const current = this.decisionOf(input.userId);
    if (!current) return { applied: false, reason: "not-member" };
    if (current.role === "owner") return { applied: false, reason: "owner" };
    const overrides = { ...current.overrides };
    if (input.value === null) delete overrides[input.permission];
    else overrides[input.permission] = input.value;
    this.ctx.storage.transactionSync(() => {
      sql.exec(`UPDATE members SET overrides = ? WHERE user_id = ?`, JSON.stringify(overrides), input.userId);
      sql.exec(`INSERT OR IGNORE INTO pending (user_id) VALUES (?)`, input.userId);
      sql.exec(`INSERT INTO updates (at) VALUES (?)`, input.now);
    });
    // Debounce: the alarm moves to 300 ms after the latest change.
    await this.ctx.storage.setAlarm(Date.now() + PERMISSION_DEBOUNCE_MS);
    const permissions = protectedPermissions(effectivePermissions(current.role, overrides), current.protection);
    return { applied: true, decision: { ...current, overrides, permissions } };
  }

  /** The debounced flush: ONE D1 batch for every pending person, ONE broadcast; then the audit entries. Safe to run twice. */
  override async onAlarm(): Promise<void> {
    await this.flushPending();
    await this.flushAudit();
  }

  // ---- RPC: the audit log ----------------------------------------------------------------------

  /**
   * Appends entries to the room's audit log: each chained to the one before (seq + 1, the previous
   * hash) with no await in between, then copied to D1 by the alarm within 300 ms. Returns the last seq.
   */
  async record(roomId: string, entries: AuditFields[]): Promise<{ seq: number }> {
    const sql = this.ctx.storage.sql;
    let head = this.auditHeadNow();
    this.ctx.storage.transactionSync(() => {
      for (const fields of entries) {
        const entry = chainEntry(roomId, head, fields);
        sql.exec(`INSERT INTO audit_pending (seq, entry) VALUES (?, ?)`, entry.seq, JSON.stringify(entry));
        head = entry;
      }
      sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('audit_seq', ?), ('audit_hash', ?)`, String(head.seq), head.hash);
      sql.exec(`INSERT OR IGNORE INTO meta (key, value) VALUES ('room_id', ?)`, roomId);
    });
    this.bump("audit_records");
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + PERMISSION_DEBOUNCE_MS);
    return { seq: head.seq };
  }

  /** Copies waiting audit entries to D1 (INSERT OR IGNORE: a repeated copy changes nothing). */
  async flushAudit(): Promise<{ written: number }> {
    return this.serialized(async () => {
      const sql = this.ctx.storage.sql;
      const rows = sql.exec<{ seq: number; entry: string }>(`SELECT seq, entry FROM audit_pending ORDER BY seq LIMIT 1000`).toArray();
      const last = rows.at(-1);
      if (!last) return { written: 0 };
      await insertAuditEntries(this.db(), rows.map((row) => JSON.parse(row.entry) as ChainedEntry));
      sql.exec(`DELETE FROM audit_pending WHERE seq <= ?`, last.seq);
      this.bump("audit_batches");
      if (sql.exec<{ n: number }>(`SELECT count(*) AS n FROM audit_pending`).one().n > 0) await this.ctx.storage.setAlarm(Date.now());
      return { written: rows.length };
    });
  }

  /** The newest entry's seq and hash (the tail the D1 copy must end with), after copying what waits. */
  async auditHead(): Promise<{ seq: number; hash: string }> {
    await this.flushAudit();
    return this.auditHeadNow();
  }

  async flushPending(): Promise<{ written: number }> {
    return this.serialized(async () => {
      const roomId = this.meta("room_id");
      const sql = this.ctx.storage.sql;
      const rows = sql
        .exec<{ user_id: string; overrides: string }>(`SELECT p.user_id, m.overrides FROM pending p JOIN members m ON m.user_id = p.user_id`)
        .toArray();
      if (!roomId || rows.length === 0) {
        sql.exec(`DELETE FROM pending`);
        return { written: 0 };
      }
      await writeMemberOverrides(
        this.db(),
        roomId,
        rows.map((row) => ({ userId: row.user_id, overrides: parseOverrides(row.overrides) })),
      );
      this.bump("d1_batches");
      sql.exec(`DELETE FROM pending`);
      this.sendPermissions(rows.map((row) => row.user_id));
      return { written: rows.length };
    });
  }

  /**
   * Loads the roster again from the D1 copy (pending overrides are written first, so nothing is
   * lost): for operators who changed dataroom_members by hand or restored D1 from a backup.
   */
  async reload(roomId: string): Promise<{ members: number }> {
    await this.flushPending();
    return this.serialized(async () => {
      this.ctx.storage.sql.exec(`DELETE FROM meta WHERE key = 'loaded'`);
      await this.ensureLoaded(roomId);
      return { members: this.ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM members`).one().n };
    });
  }

  /**
   * The bench (G10): makes `n` decisions for one person inside the object and returns how many
   * people the room has. Timed by the caller (the Worker's clock advances across the call; the
   * object's does not during synchronous work), against a call with n = 0.
   */
  async decideMany(roomId: string, userId: string, n: number): Promise<{ members: number; allowed: number }> {
    await this.ensureLoaded(roomId);
    const count = Math.min(Math.max(Math.trunc(n), 0), 20_000);
    let allowed = 0;
    for (let i = 0; i < count; i++) if (this.decisionOf(userId)?.permissions.view) allowed++;
    return { members: this.ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM members`).one().n, allowed };
  }

  /**
   * Counters for tests and the bench (G10): decisions made, D1 batches written, broadcasts sent,
   * and what keeps the object awake: a pending alarm (the 300 ms flush) and its sockets. A socket
   * accepted through the hibernation API (`hibernatableSockets`) does not keep it in memory, so
   * an idle room (no alarm, every socket hibernatable) can be evicted and woken by the next message.
   */
  async stats(): Promise<{
    decisions: number;
    auditRecords: number;
    d1Batches: number;
    broadcasts: number;
    pending: number;
    alarmPending: boolean;
    sockets: number;
    hibernatableSockets: number;
  }> {
    const value = (name: string) => this.ctx.storage.sql.exec<{ value: number }>(`SELECT value FROM counters WHERE name = ?`, name).toArray()[0]?.value ?? 0;
    const pending = this.ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM pending`).one().n;
    const alarmPending = (await this.ctx.storage.getAlarm()) !== null;
    return {
      decisions: value("decisions"),
      auditRecords: value("audit_records"),
      d1Batches: value("d1_batches"),
      broadcasts: value("broadcasts"),
      pending,
      alarmPending,
      sockets: this.countConnections(),
      hibernatableSockets: this.ctx.getWebSockets().length,
    };
  }

  // ---- inside ----------------------------------------------------------------------------------

  private ipRanges(): string[] {
    try {
      const parsed: unknown = JSON.parse(this.meta("ip_allowlist") ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((range): range is string => typeof range === "string") : [];
    } catch {
      return [];
    }
  }

  private auditHeadNow(): { seq: number; hash: string } {
    return { seq: Number(this.meta("audit_seq") ?? 0), hash: this.meta("audit_hash") ?? AUDIT_GENESIS_HASH };
  }

  /** One person's role and effective permissions from the roster, or null when they are not in it. */
  private decisionOf(userId: string): RoomDecision | null {
    const row = this.ctx.storage.sql
      .exec<{ role: string; overrides: string; expires_at: number | null }>(`SELECT role, overrides, expires_at FROM members WHERE user_id = ?`, userId)
      .toArray()[0];
    if (!row) return null;
    const role = row.role as DataroomRole;
    const overrides = parseOverrides(row.overrides);
    const protection = readProtection(this.meta("protection"));
    return {
      role,
      overrides,
      permissions: protectedPermissions(effectivePermissions(role, overrides), protection),
      accessEndsAt: row.expires_at ?? null,
      ipRanges: this.ipRanges(),
      protection,
      twoFactorRequired: this.meta("require_2fa") === "1",
    };
  }

  private db() {
    return roomCopyDatabase(this.env.DB);
  }

  private meta(key: string): string | null {
    return this.ctx.storage.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0]?.value ?? null;
  }

  /** The roster is loaded from the D1 copy once; after that this object is the authority. */
  private async ensureLoaded(roomId: string): Promise<void> {
    if (this.meta("loaded") === "1") return;
    const [roster, security] = await Promise.all([loadRoomRoster(this.db(), roomId), loadRoomSecurity(this.db(), roomId)]);
    if (this.meta("loaded") === "1") return;
    this.ctx.storage.transactionSync(() => {
      const sql = this.ctx.storage.sql;
      sql.exec(`DELETE FROM members`);
      for (const member of roster) {
        sql.exec(
          `INSERT INTO members (user_id, role, overrides, expires_at) VALUES (?, ?, ?, ?)`,
          member.userId,
          member.role,
          JSON.stringify(member.overrides ?? {}),
          member.accessExpiresAt ? member.accessExpiresAt.getTime() : null,
        );
      }
      sql.exec(
        `INSERT OR REPLACE INTO meta (key, value) VALUES ('room_id', ?), ('loaded', '1'), ('ip_allowlist', ?), ('protection', ?), ('require_2fa', ?)`,
        roomId,
        JSON.stringify(security.ipAllowlist),
        JSON.stringify(security.protection),
        security.require2fa ? "1" : "0",
      );
    });
  }

  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private bump(name: string): void {
    this.ctx.storage.sql.exec(`INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1`, name);
  }

  private roomIdFromRequest(request: Request): string | null {
    const fromHeader = request.headers.get("x-partykit-room");
    if (fromHeader) return fromHeader;
    return new URL(request.url).pathname.split("/").filter(Boolean).at(-1) ?? null;
  }

  private *connectionsOf(userId: string): Iterable<Connection<ConnectionState>> {
    for (const connection of this.getConnections<ConnectionState>()) if (connection.state?.userId === userId) yield connection;
  }

  /** One fan-out: each changed person's sockets get their own new permissions. */
  private sendPermissions(userIds: string[]): void {
    const wanted = new Set(userIds);
    const at = Date.now();
    for (const connection of this.getConnections<ConnectionState>()) {
      const userId = connection.state?.userId;
      if (!userId || !wanted.has(userId)) continue;
      const decision = this.decisionOf(userId);
      if (!decision) continue;
      send(connection, { type: "event", name: "permissions.changed", data: { role: decision.role, permissions: decision.permissions }, at });
    }
    this.bump("broadcasts");
  }

  private publishInternal(name: string, data: Record<string, unknown>): void {
    this.broadcastMessage({ type: "event", name, data, at: Date.now() });
  }

  /** Open sockets and the people behind them, each person once (a person may have several tabs). */
  private presenceMessage(excludingId?: string): ServerMessage {
    const people = new Map<string, string>();
    let connections = 0;
    for (const connection of this.getConnections<ConnectionState>()) {
      if (connection.id === excludingId) continue;
      connections++;
      const state = connection.state;
      if (state?.userId) people.set(state.userId, state.name);
    }
    return { type: "presence", connections, people: [...people].map(([userId, name]) => ({ userId, name })) };
  }

  private countConnections(excludingId?: string): number {
    let count = 0;
    for (const connection of this.getConnections()) if (connection.id !== excludingId) count++;
    return count;
  }

  private broadcastMessage(message: ServerMessage, without?: string[]): void {
    this.broadcast(JSON.stringify(message), without);
  }
}

function parseOverrides(text: string): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === "boolean"));
  } catch {
    return {};
  }
}

function send(connection: Connection, message: ServerMessage): void {
  connection.send(JSON.stringify(message));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export type { DataroomPermission };
