CREATE TABLE `secret_files` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_id` text NOT NULL,
	`seq` integer NOT NULL,
	`stored_size` integer NOT NULL,
	`r2_key` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`secret_id`) REFERENCES `secrets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `secret_files_secret_idx` ON `secret_files` (`secret_id`,`seq`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `secret_file_id` text;