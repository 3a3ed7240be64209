ALTER TABLE `sessions` ADD `second_factor_at` integer;--> statement-breakpoint
ALTER TABLE `datarooms` ADD `require_2fa` integer DEFAULT false NOT NULL;