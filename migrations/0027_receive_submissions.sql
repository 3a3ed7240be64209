CREATE TABLE `receive_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`page_id` text,
	`user_id` text NOT NULL,
	`page_title` text NOT NULL,
	`uploader_name` text,
	`uploader_email` text,
	`answers` text DEFAULT '[]' NOT NULL,
	`grant_hash` text NOT NULL,
	`folder_label` text,
	`file_count` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`notified_at` integer,
	FOREIGN KEY (`page_id`) REFERENCES `receive_pages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receive_submissions_grant_hash_unique` ON `receive_submissions` (`grant_hash`);--> statement-breakpoint
CREATE INDEX `receive_submissions_page_idx` ON `receive_submissions` (`page_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `receive_submissions_user_idx` ON `receive_submissions` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `receive_submission_id` text;--> statement-breakpoint
CREATE INDEX `uploads_receive_submission_idx` ON `uploads` (`receive_submission_id`);