CREATE TABLE `dataroom_page_time` (
	`dataroom_id` text NOT NULL,
	`file_id` text NOT NULL,
	`user_id` text NOT NULL,
	`page` integer NOT NULL,
	`ms` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`dataroom_id`, `file_id`, `user_id`, `page`),
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dataroom_page_time_file_idx` ON `dataroom_page_time` (`file_id`);