CREATE TABLE `case_events` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`file_id` text,
	`detail` text,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `case_events_case_idx` ON `case_events` (`case_id`,`at`);--> statement-breakpoint
CREATE TABLE `case_participants` (
	`case_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`user_id` text,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`case_id`, `email`),
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `case_participants_user_idx` ON `case_participants` (`user_id`);--> statement-breakpoint
CREATE TABLE `case_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`assignee_id` text,
	`due_at` integer,
	`done_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `case_tasks_case_idx` ON `case_tasks` (`case_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `case_types` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`fields` text NOT NULL,
	`folders` text NOT NULL,
	`default_workflow_id` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `case_types_owner_idx` ON `case_types` (`created_by`,`updated_at`);--> statement-breakpoint
CREATE TABLE `cases` (
	`id` text PRIMARY KEY NOT NULL,
	`type_id` text NOT NULL,
	`space_id` text NOT NULL,
	`reference` text NOT NULL,
	`title` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`values` text NOT NULL,
	`folder_id` text,
	`owner_id` text NOT NULL,
	`assignee_id` text,
	`due_at` integer,
	`source_kind` text DEFAULT 'manual' NOT NULL,
	`source_ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`type_id`) REFERENCES `case_types`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `cases_owner_idx` ON `cases` (`owner_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `cases_assignee_idx` ON `cases` (`assignee_id`,`status`);--> statement-breakpoint
CREATE INDEX `cases_type_idx` ON `cases` (`type_id`);--> statement-breakpoint
CREATE INDEX `cases_source_idx` ON `cases` (`source_kind`,`source_ref`);--> statement-breakpoint
ALTER TABLE `workflow_runs` ADD `case_id` text;--> statement-breakpoint
CREATE INDEX `workflow_runs_case_idx` ON `workflow_runs` (`case_id`);