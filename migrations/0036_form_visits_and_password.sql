CREATE TABLE `form_visits` (
	`id` text NOT NULL,
	`form_id` text NOT NULL,
	`version` integer NOT NULL,
	`furthest_page` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`form_id`, `id`),
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_visits_version_idx` ON `form_visits` (`form_id`,`version`);--> statement-breakpoint
ALTER TABLE `forms` ADD `password_hash` text;