CREATE TABLE `secret_request_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`ephemeral_key` text NOT NULL,
	`ciphertext` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `secret_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `secret_request_responses_request_idx` ON `secret_request_responses` (`request_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `secret_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`message` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`public_key` text NOT NULL,
	`wrapped_key` text NOT NULL,
	`kdf` text NOT NULL,
	`max_responses` integer NOT NULL,
	`response_count` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secret_requests_token_hash_unique` ON `secret_requests` (`token_hash`);--> statement-breakpoint
CREATE INDEX `secret_requests_user_created_idx` ON `secret_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `secret_requests_expiry_idx` ON `secret_requests` (`expires_at`);