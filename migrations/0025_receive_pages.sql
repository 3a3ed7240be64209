CREATE TABLE `receive_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`slug` text,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`space_id` text NOT NULL,
	`folder_id` text NOT NULL,
	`deadline_at` integer,
	`password_hash` text,
	`allowed_types` text DEFAULT '[]' NOT NULL,
	`max_file_mb` integer,
	`max_files_per_uploader` integer,
	`per_uploader_folders` integer DEFAULT false NOT NULL,
	`require_name` integer DEFAULT false NOT NULL,
	`require_email` integer DEFAULT false NOT NULL,
	`fields` text DEFAULT '[]' NOT NULL,
	`brand_color` text,
	`is_open` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receive_pages_token_hash_unique` ON `receive_pages` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `receive_pages_slug_unique` ON `receive_pages` (`slug`);--> statement-breakpoint
CREATE INDEX `receive_pages_user_created_idx` ON `receive_pages` (`user_id`,`created_at`);