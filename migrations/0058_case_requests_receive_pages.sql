-- Issue 41: a case request may send a receive page instead of a form (form_id becomes nullable,
-- receive_page_id is new). SQLite cannot drop NOT NULL in place, so the table is rebuilt; nothing
-- references case_requests, so the rebuild cascades nowhere (ADR 005), and every row is copied.
-- (drizzle-kit's generated copy selected the new column from the old table; written by hand.)
CREATE TABLE `__new_case_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`form_id` text,
	`receive_page_id` text,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`requested_by` text,
	`created_at` integer NOT NULL,
	`submission_id` text,
	`answered_at` integer,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`receive_page_id`) REFERENCES `receive_pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_case_requests`("id", "case_id", "form_id", "receive_page_id", "email", "name", "token_hash", "requested_by", "created_at", "submission_id", "answered_at") SELECT "id", "case_id", "form_id", NULL, "email", "name", "token_hash", "requested_by", "created_at", "submission_id", "answered_at" FROM `case_requests`;--> statement-breakpoint
DROP TABLE `case_requests`;--> statement-breakpoint
ALTER TABLE `__new_case_requests` RENAME TO `case_requests`;--> statement-breakpoint
CREATE UNIQUE INDEX `case_requests_token_idx` ON `case_requests` (`token_hash`);--> statement-breakpoint
CREATE INDEX `case_requests_case_idx` ON `case_requests` (`case_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `case_requests_submission_idx` ON `case_requests` (`submission_id`);
