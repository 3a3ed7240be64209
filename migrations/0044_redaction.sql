CREATE TABLE `file_redactions` (
	`id` text PRIMARY KEY NOT NULL,
	`file_id` text NOT NULL,
	`space_id` text NOT NULL,
	`version` integer NOT NULL,
	`report` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `file_redactions_file_idx` ON `file_redactions` (`file_id`,`version`);