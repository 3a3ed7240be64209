CREATE TABLE `dataroom_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`dataroom_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`created_at` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`send_count` integer DEFAULT 1 NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_by` text,
	`revoked_at` integer,
	FOREIGN KEY (`dataroom_id`) REFERENCES `datarooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dataroom_invitations_token_hash_unique` ON `dataroom_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `dataroom_invitations_room_idx` ON `dataroom_invitations` (`dataroom_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `dataroom_invitations_open_idx` ON `dataroom_invitations` (`dataroom_id`,`email`) WHERE accepted_at IS NULL AND revoked_at IS NULL;