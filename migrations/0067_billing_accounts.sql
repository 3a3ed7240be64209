CREATE TABLE `billing_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`status` text,
	`tier` text,
	`interval` text,
	`addons` text,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`next_amount` integer,
	`currency` text,
	`synced_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_accounts_customer_idx` ON `billing_accounts` (`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`customer_id` text,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `local_stripe_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`customer_id` text,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `local_stripe_objects_customer_idx` ON `local_stripe_objects` (`kind`,`customer_id`);