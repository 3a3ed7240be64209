ALTER TABLE `form_submissions` ADD `verified_email` text;--> statement-breakpoint
CREATE INDEX `form_submissions_verified_email_idx` ON `form_submissions` (`form_id`,`verified_email`);--> statement-breakpoint
ALTER TABLE `forms` ADD `verify_email` integer DEFAULT false NOT NULL;