CREATE TABLE `workflow_links` (
	`run_id` text NOT NULL,
	`step_index` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `step_index`),
	FOREIGN KEY (`run_id`) REFERENCES `workflow_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_links_ref_idx` ON `workflow_links` (`kind`,`ref_id`);