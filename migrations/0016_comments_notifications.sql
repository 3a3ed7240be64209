CREATE TABLE `dataroom_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`dataroom_id` text NOT NULL,
	`file_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`author_id` text,
	`body` text NOT NULL,
	`mentions` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	`resolved_at` integer,
	`resolved_by` text,
	`reply_count` integer DEFAULT 0 NOT NULL,
	`last_activity_at` integer NOT NULL,
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `dataroom_comments_file_idx` ON `dataroom_comments` (`file_id`,`thread_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `dataroom_comments_room_idx` ON `dataroom_comments` (`dataroom_id`,`last_activity_at`) WHERE id = thread_id;--> statement-breakpoint
CREATE TABLE `dataroom_notification_prefs` (
	`dataroom_id` text NOT NULL,
	`user_id` text NOT NULL,
	`mode` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`dataroom_id`, `user_id`),
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`dataroom_id` text,
	`kind` text NOT NULL,
	`actor_id` text,
	`title` text NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`link` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`email_state` text DEFAULT 'none' NOT NULL,
	`group_key` text,
	`subject_id` text,
	`count` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`dataroom_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_group_idx` ON `notifications` (`user_id`,`group_key`) WHERE group_key IS NOT NULL AND read_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_subject_idx` ON `notifications` (`group_key`,`subject_id`) WHERE group_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_digest_idx` ON `notifications` (`user_id`,`created_at`) WHERE email_state = 'pending';--> statement-breakpoint
ALTER TABLE `datarooms` ADD `notification_default` text DEFAULT 'instant' NOT NULL;