CREATE TABLE `share_link_agreements` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`ip` text,
	`accepted_at` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `share_link_agreements_link_idx` ON `share_link_agreements` (`link_id`,`accepted_at`);--> statement-breakpoint
CREATE TABLE `share_links` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`slug` text,
	`name` text DEFAULT '' NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`space_id` text NOT NULL,
	`created_by` text,
	`password_hash` text,
	`expires_at` integer,
	`max_views` integer,
	`view_count` integer DEFAULT 0 NOT NULL,
	`require_email` integer DEFAULT false NOT NULL,
	`verify_email` integer DEFAULT false NOT NULL,
	`allow_list` text DEFAULT '[]' NOT NULL,
	`deny_list` text DEFAULT '[]' NOT NULL,
	`agreement` text,
	`allow_download` integer DEFAULT true NOT NULL,
	`download_mode` text DEFAULT 'original' NOT NULL,
	`print_protection` integer DEFAULT false NOT NULL,
	`watermark` integer DEFAULT false NOT NULL,
	`revoked_at` integer,
	`last_viewed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_token_hash_unique` ON `share_links` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_slug_unique` ON `share_links` (`slug`);--> statement-breakpoint
CREATE INDEX `share_links_space_idx` ON `share_links` (`space_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `share_links_target_idx` ON `share_links` (`target_id`) WHERE revoked_at IS NULL;