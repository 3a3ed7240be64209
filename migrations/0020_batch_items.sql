CREATE TABLE `batch_items` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`item_type` text NOT NULL,
	`item_id` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`error` text,
	PRIMARY KEY(`job_id`, `seq`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `batch_items_state_idx` ON `batch_items` (`job_id`,`state`);