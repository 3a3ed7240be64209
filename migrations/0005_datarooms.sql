CREATE TABLE `dataroom_members` (
	`dataroom_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`overrides` text DEFAULT '{}' NOT NULL,
	`joined_at` integer NOT NULL,
	`last_seen_at` integer,
	PRIMARY KEY(`dataroom_id`, `user_id`),
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dataroom_members_user_idx` ON `dataroom_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `datarooms` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`archived_at` integer,
	`trashed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `datarooms_owner_idx` ON `datarooms` (`owner_id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `datarooms_trash_idx` ON `datarooms` (`trashed_at`) WHERE trashed_at IS NOT NULL;