ALTER TABLE `dataroom_invitations` ADD `access_expires_at` integer;--> statement-breakpoint
ALTER TABLE `dataroom_members` ADD `access_expires_at` integer;