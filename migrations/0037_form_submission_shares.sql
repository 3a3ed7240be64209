CREATE TABLE `form_share_openings` (
	`id` text PRIMARY KEY NOT NULL,
	`share_id` text NOT NULL,
	`opened_at` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`embedded` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`share_id`) REFERENCES `form_submission_shares`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_share_openings_share_idx` ON `form_share_openings` (`share_id`,`opened_at`);--> statement-breakpoint
CREATE TABLE `form_submission_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`form_id` text NOT NULL,
	`submission_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`opens` integer DEFAULT 0 NOT NULL,
	`last_opened_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `form_submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `form_submission_shares_token_hash_unique` ON `form_submission_shares` (`token_hash`);--> statement-breakpoint
CREATE INDEX `form_submission_shares_submission_idx` ON `form_submission_shares` (`submission_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `forms` ADD `embed_origins` text DEFAULT '[]' NOT NULL;