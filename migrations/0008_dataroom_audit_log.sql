CREATE TABLE `dataroom_audit_log` (
	`dataroom_id` text NOT NULL,
	`seq` integer NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text,
	`actor_email` text,
	`action` text NOT NULL,
	`outcome` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`target_name` text,
	`detail` text,
	`ip` text,
	`user_agent` text,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`dataroom_id`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `dataroom_audit_actor_idx` ON `dataroom_audit_log` (`dataroom_id`,`actor_id`,`seq`);--> statement-breakpoint
CREATE INDEX `dataroom_audit_action_idx` ON `dataroom_audit_log` (`dataroom_id`,`action`,`seq`);--> statement-breakpoint
CREATE INDEX `dataroom_audit_target_idx` ON `dataroom_audit_log` (`dataroom_id`,`target_id`,`seq`);--> statement-breakpoint
CREATE INDEX `dataroom_audit_at_idx` ON `dataroom_audit_log` (`dataroom_id`,`at`);--> statement-breakpoint
-- Append-only (QUALITY S22): no row is ever changed, and none is removed while its room exists
-- (the purge of a room deleted for good removes the room first, then its log). Written by hand:
-- drizzle-kit does not model triggers.
CREATE TRIGGER `dataroom_audit_log_no_update` BEFORE UPDATE ON `dataroom_audit_log`
BEGIN
	SELECT RAISE(ABORT, 'The audit log is append-only.');
END;--> statement-breakpoint
CREATE TRIGGER `dataroom_audit_log_no_delete` BEFORE DELETE ON `dataroom_audit_log`
WHEN EXISTS (SELECT 1 FROM `datarooms` WHERE `id` = OLD.`dataroom_id`)
BEGIN
	SELECT RAISE(ABORT, 'The audit log is append-only.');
END;
