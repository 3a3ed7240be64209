CREATE TABLE `secret_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`secret_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`secret_id`) REFERENCES `secrets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `secret_events_secret_idx` ON `secret_events` (`secret_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `secret_events_user_idx` ON `secret_events` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`ciphertext` text,
	`size` integer DEFAULT 0 NOT NULL,
	`proof_hash` text NOT NULL,
	`kdf` text,
	`max_views` integer NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`last_viewed_at` integer,
	`burned_at` integer,
	`burn_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secrets_token_hash_unique` ON `secrets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `secrets_user_created_idx` ON `secrets` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `secrets_live_expiry_idx` ON `secrets` (`expires_at`) WHERE ciphertext IS NOT NULL;