ALTER TABLE `datarooms` ADD `logo_key` text;--> statement-breakpoint
ALTER TABLE `datarooms` ADD `logo_type` text;--> statement-breakpoint
ALTER TABLE `datarooms` ADD `logo_updated_at` integer;