CREATE TABLE `member_trials` (
	`user_id` text PRIMARY KEY NOT NULL,
	`tier` text NOT NULL,
	`started_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`reminded_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `member_trials_open_idx` ON `member_trials` (`ends_at`) WHERE ended_at IS NULL;