ALTER TABLE `workflow_runs` ADD `subject_submission_id` text;--> statement-breakpoint
ALTER TABLE `workflow_templates` ADD `trigger_source_id` text;--> statement-breakpoint
CREATE INDEX `workflow_templates_trigger_source_idx` ON `workflow_templates` (`trigger_source_id`);