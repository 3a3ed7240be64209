CREATE TABLE `referral_codes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `referral_codes_code_idx` ON `referral_codes` (`code`);--> statement-breakpoint
CREATE TABLE `referrals` (
	`referred_id` text PRIMARY KEY NOT NULL,
	`referrer_id` text NOT NULL,
	`status` text NOT NULL,
	`refusal` text,
	`signed_up_at` integer NOT NULL,
	`paid_at` integer,
	`card_fingerprint` text,
	`credit_cents` integer,
	`currency` text,
	`credited_at` integer,
	FOREIGN KEY (`referred_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referrer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `referrals_referrer_idx` ON `referrals` (`referrer_id`);