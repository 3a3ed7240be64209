ALTER TABLE `receive_pages` ADD `logo_key` text;--> statement-breakpoint
ALTER TABLE `receive_pages` ADD `logo_type` text;