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
ALTER TABLE `teams` ADD `legal_hold_reason` text DEFAULT '' NOT NULL;