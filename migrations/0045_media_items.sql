CREATE TABLE `media_items` (
	`source_key` text PRIMARY KEY NOT NULL,
	`file_id` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`width` integer,
	`height` integer,
	`thumb_bytes` integer,
	`screen_bytes` integer,
	`taken_at` text,
	`camera` text,
	`latitude` real,
	`longitude` real,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_items_file_idx` ON `media_items` (`file_id`);