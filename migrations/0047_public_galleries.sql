CREATE TABLE `gallery_favourites` (
	`visit_id` text NOT NULL,
	`file_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`visit_id`, `file_id`),
	FOREIGN KEY (`visit_id`) REFERENCES `share_link_visits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `share_links` ADD `presentation` text DEFAULT 'document' NOT NULL;--> statement-breakpoint
ALTER TABLE `share_links` ADD `download_size` text DEFAULT 'original' NOT NULL;--> statement-breakpoint
ALTER TABLE `share_links` ADD `show_exif` integer DEFAULT false NOT NULL;