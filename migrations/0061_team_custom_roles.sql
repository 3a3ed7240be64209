CREATE TABLE `team_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`permissions` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_roles_name_idx` ON `team_roles` (`team_id`,lower("name"));--> statement-breakpoint
ALTER TABLE `team_members` ADD `custom_role_id` text REFERENCES team_roles(id);