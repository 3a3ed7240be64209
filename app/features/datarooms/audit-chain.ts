import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { AuditOutcome } from "~/db/schema";

/**
 * The hash chain of a room's audit log. Each entry's hash is the SHA-256 of a canonical JSON array
 * of every field, the previous entry's hash included, so changing, removing or inserting any entry
 * breaks the chain from there on. Synchronous on purpose: the room's Durable Object appends with
 * no await between reading the last hash and writing the next, so entries never interleave.
 */
export type AuditFields = {
  at: number;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  outcome: AuditOutcome;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  detail: string | null;
  ip: string | null;
  userAgent: string | null;
};

export type ChainedEntry = AuditFields & { roomId: string; seq: number; prevHash: string; hash: string };

const encoder = new TextEncoder();

export function auditHash(roomId: string, seq: number, prevHash: string, fields: AuditFields): string {
  const canonical = JSON.stringify([
    roomId,
    seq,
    prevHash,
    fields.at,
    fields.actorId,
    fields.actorEmail,
    fields.action,
    fields.outcome,
    fields.targetType,
    fields.targetId,
    fields.targetName,
    fields.detail,
    fields.ip,
    fields.userAgent,
  ]);
  return encodeHexLowerCase(sha256(encoder.encode(canonical)));
}

/** The entry after `previous` (seq and hash), chained. */
export function chainEntry(roomId: string, previous: { seq: number; hash: string }, fields: AuditFields): ChainedEntry {
  const seq = previous.seq + 1;
  return { ...fields, roomId, seq, prevHash: previous.hash, hash: auditHash(roomId, seq, previous.hash, fields) };
}
