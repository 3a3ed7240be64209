CREATE TABLE `print_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`buyer_id` text,
	`folder_id` text NOT NULL,
	`share_link_id` text,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`address` text NOT NULL,
	`items` text NOT NULL,
	`shipping_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`checkout_session_id` text,
	`payment_intent_id` text,
	`lab_order_id` text,
	`tracking_url` text,
	`failure` text,
	`events` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`buyer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `print_orders_buyer_idx` ON `print_orders` (`buyer_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `print_orders_lab_idx` ON `print_orders` (`lab_order_id`);--> statement-breakpoint
ALTER TABLE `share_links` ADD `allow_prints` integer DEFAULT false NOT NULL;