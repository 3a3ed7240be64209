CREATE TABLE `signature_envelopes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`dataroom_id` text,
	`space_id` text NOT NULL,
	`template_id` text,
	`title` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`signing_order` text DEFAULT 'parallel' NOT NULL,
	`source_file_id` text,
	`source_folder_id` text,
	`document_name` text NOT NULL,
	`document_key` text NOT NULL,
	`document_size` integer NOT NULL,
	`document_sha256` text NOT NULL,
	`page_count` integer NOT NULL,
	`fields` text NOT NULL,
	`expires_at` integer,
	`reminder_first_days` integer,
	`reminder_every_days` integer,
	`sent_at` integer,
	`completed_at` integer,
	`sealed_file_id` text,
	`sealed_sha256` text,
	`sealed_key` text,
	`sealed_size` integer,
	`voided_at` integer,
	`void_reason` text,
	`revision` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signature_envelopes_user_idx` ON `signature_envelopes` (`user_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `signature_envelopes_room_idx` ON `signature_envelopes` (`dataroom_id`,`updated_at`,`id`) WHERE dataroom_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `signature_envelopes_sealed_idx` ON `signature_envelopes` (`sealed_sha256`) WHERE sealed_sha256 IS NOT NULL;--> statement-breakpoint
CREATE INDEX `signature_envelopes_due_idx` ON `signature_envelopes` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `signature_events` (
	`id` text PRIMARY KEY NOT NULL,
	`envelope_id` text NOT NULL,
	`recipient_id` text,
	`type` text NOT NULL,
	`actor` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`detail` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`envelope_id`) REFERENCES `signature_envelopes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signature_events_envelope_idx` ON `signature_events` (`envelope_id`,`at`);--> statement-breakpoint
CREATE TABLE `signature_recipients` (
	`id` text PRIMARY KEY NOT NULL,
	`envelope_id` text NOT NULL,
	`role_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`kind` text NOT NULL,
	`require_code` integer DEFAULT false NOT NULL,
	`token_hash` text,
	`token_sealed` text,
	`status` text DEFAULT 'waiting' NOT NULL,
	`values` text,
	`sent_at` integer,
	`opened_at` integer,
	`signed_at` integer,
	`declined_at` integer,
	`decline_reason` text,
	`consented_at` integer,
	`verification` text,
	`ip` text,
	`user_agent` text,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`last_reminded_at` integer,
	FOREIGN KEY (`envelope_id`) REFERENCES `signature_envelopes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signature_recipients_token_unique` ON `signature_recipients` (`token_hash`);--> statement-breakpoint
CREATE INDEX `signature_recipients_envelope_idx` ON `signature_recipients` (`envelope_id`,`position`);--> statement-breakpoint
CREATE INDEX `signature_recipients_email_idx` ON `signature_recipients` (`email`,`status`);--> statement-breakpoint
CREATE TABLE `signature_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`space_id` text NOT NULL,
	`source_file_id` text,
	`document_name` text NOT NULL,
	`document_key` text NOT NULL,
	`document_size` integer NOT NULL,
	`page_count` integer NOT NULL,
	`roles` text NOT NULL,
	`fields` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signature_templates_user_idx` ON `signature_templates` (`user_id`,`updated_at`);