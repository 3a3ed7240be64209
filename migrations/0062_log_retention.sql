CREATE TABLE `dataroom_audit_checkpoints` (
	`dataroom_id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`hash` text NOT NULL,
	`pruned_at` integer NOT NULL,
	`cutoff_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `teams` ADD `log_retention_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `legal_hold_at` integer;--> statement-breakpoint
ALTER TABLE `teams` ADD `legal_hold_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `legal_hold_reason` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Retention (issue 42, ADR 039): an entry may go while its room exists only at or below the room's
-- checkpoint, which the pruning batch writes first (and which verifies only if a pruning entry of
-- the chain names it). Written by hand: drizzle-kit does not model triggers.
DROP TRIGGER `dataroom_audit_log_no_delete`;--> statement-breakpoint
CREATE TRIGGER `dataroom_audit_log_no_delete` BEFORE DELETE ON `dataroom_audit_log`
WHEN EXISTS (SELECT 1 FROM `datarooms` WHERE `id` = OLD.`dataroom_id`)
	AND NOT EXISTS (SELECT 1 FROM `dataroom_audit_checkpoints` c WHERE c.`dataroom_id` = OLD.`dataroom_id` AND OLD.`seq` <= c.`seq`)
BEGIN
	SELECT RAISE(ABORT, 'The audit log is append-only.');
END;
