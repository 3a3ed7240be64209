CREATE TABLE `tiers` (
	`name` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`sort_order` integer NOT NULL,
	`max_datarooms` integer NOT NULL,
	`max_dataroom_storage_mb` integer NOT NULL,
	`max_dataroom_files` integer NOT NULL,
	`max_dataroom_folders` integer NOT NULL,
	`max_dataroom_members` integer NOT NULL,
	`max_dataroom_guests` integer NOT NULL,
	`permissions` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_addons` (
	`user_id` text NOT NULL,
	`addon` text NOT NULL,
	`quantity` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `addon`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_permissions` (
	`user_id` text NOT NULL,
	`scope` text NOT NULL,
	`permission` text NOT NULL,
	`value` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `scope`, `permission`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_permissions_scope_idx` ON `user_permissions` (`scope`);--> statement-breakpoint
-- Seed: the tier limits (docs/plans.md explains the choice). -1 means unlimited. Edit with `npm run ops -- tier:set-limit`.
INSERT INTO `tiers` (`name`, `label`, `sort_order`, `max_datarooms`, `max_dataroom_storage_mb`, `max_dataroom_files`, `max_dataroom_folders`, `max_dataroom_members`, `max_dataroom_guests`, `permissions`, `updated_at`) VALUES
	('free', 'Free', 0, 2, 1024, 250, 50, 3, 10, NULL, 1795737600000),
	('basic', 'Basic', 1, 5, 10240, 2500, 500, 10, 50, NULL, 1795737600000),
	('pro', 'Pro', 2, 20, 51200, 10000, 2000, 25, 250, NULL, 1795737600000),
	('business', 'Business', 3, 100, 256000, 50000, 10000, 100, 2500, NULL, 1795737600000),
	('custom', 'Enterprise', 4, -1, -1, -1, -1, -1, -1, NULL, 1795737600000);
