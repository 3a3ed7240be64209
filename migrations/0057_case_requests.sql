CREATE TABLE `case_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`form_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`requested_by` text,
	`created_at` integer NOT NULL,
	`submission_id` text,
	`answered_at` integer,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `case_requests_token_idx` ON `case_requests` (`token_hash`);--> statement-breakpoint
CREATE INDEX `case_requests_case_idx` ON `case_requests` (`case_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `case_requests_submission_idx` ON `case_requests` (`submission_id`);