CREATE TABLE `share_link_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`email` text,
	`ip` text,
	`user_agent` text,
	`started_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `share_link_visits_link_idx` ON `share_link_visits` (`link_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `share_privacy` (
	`space_id` text PRIMARY KEY NOT NULL,
	`ip_mode` text DEFAULT 'truncated' NOT NULL,
	`retention_days` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `share_visit_files` (
	`visit_id` text NOT NULL,
	`file_id` text NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`page_count` integer,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`visit_id`, `file_id`),
	FOREIGN KEY (`visit_id`) REFERENCES `share_link_visits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `share_visit_pages` (
	`visit_id` text NOT NULL,
	`file_id` text NOT NULL,
	`page` integer NOT NULL,
	`ms` integer NOT NULL,
	PRIMARY KEY(`visit_id`, `file_id`, `page`),
	FOREIGN KEY (`visit_id`) REFERENCES `share_link_visits`(`id`) ON UPDATE no action ON DELETE cascade
);
