DROP INDEX `workflow_runs_template_idx`;--> statement-breakpoint
ALTER TABLE `workflow_runs` ADD `trigger_kind` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `workflow_runs` ADD `trigger_ref` text;--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_runs_trigger_idx` ON `workflow_runs` (`template_id`,`trigger_ref`);--> statement-breakpoint
CREATE INDEX `workflow_runs_template_idx` ON `workflow_runs` (`template_id`,`started_at`);--> statement-breakpoint
ALTER TABLE `workflow_templates` ADD `trigger_kind` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `workflow_templates` ADD `trigger_folder_id` text;--> statement-breakpoint
CREATE INDEX `workflow_templates_trigger_folder_idx` ON `workflow_templates` (`trigger_folder_id`);