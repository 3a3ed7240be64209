CREATE TABLE `form_webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`submission_id` text NOT NULL,
	`event_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`response_code` integer,
	`error` text,
	`duration_ms` integer,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `form_webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_webhook_deliveries_webhook_idx` ON `form_webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `form_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`form_id` text NOT NULL,
	`url` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`is_enabled` integer DEFAULT true NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`disabled_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_webhooks_form_idx` ON `form_webhooks` (`form_id`);