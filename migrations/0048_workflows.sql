CREATE TABLE `workflow_events` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`detail` text,
	FOREIGN KEY (`run_id`) REFERENCES `workflow_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `workflow_events_run_idx` ON `workflow_events` (`run_id`,`at`);--> statement-breakpoint
CREATE TABLE `workflow_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`template_id` text NOT NULL,
	`space_id` text NOT NULL,
	`subject_file_id` text,
	`status` text NOT NULL,
	`step_index` integer DEFAULT 0 NOT NULL,
	`started_by` text,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`template_id`) REFERENCES `workflow_templates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`started_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `workflow_runs_space_idx` ON `workflow_runs` (`space_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `workflow_runs_template_idx` ON `workflow_runs` (`template_id`);--> statement-breakpoint
CREATE TABLE `workflow_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`step_index` integer NOT NULL,
	`assignee_id` text NOT NULL,
	`status` text NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`run_id`) REFERENCES `workflow_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_tasks_step_person_idx` ON `workflow_tasks` (`run_id`,`step_index`,`assignee_id`);--> statement-breakpoint
CREATE INDEX `workflow_tasks_assignee_idx` ON `workflow_tasks` (`assignee_id`,`status`);--> statement-breakpoint
CREATE TABLE `workflow_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `workflow_templates_space_idx` ON `workflow_templates` (`space_id`,`updated_at`);