ALTER TABLE `uploads` ADD `form_submission_id` text;--> statement-breakpoint
CREATE INDEX `uploads_form_submission_idx` ON `uploads` (`form_submission_id`);--> statement-breakpoint
ALTER TABLE `form_submissions` ADD `files` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `form_submissions` ADD `grant_hash` text;--> statement-breakpoint
ALTER TABLE `form_submissions` ADD `settled_at` integer;--> statement-breakpoint
CREATE INDEX `form_submissions_grant_idx` ON `form_submissions` (`grant_hash`);--> statement-breakpoint
ALTER TABLE `forms` ADD `file_folder_id` text;--> statement-breakpoint
ALTER TABLE `forms` ADD `files_per_submission` integer DEFAULT false NOT NULL;