ALTER TABLE `users` ADD `whats_new_seen` text;--> statement-breakpoint
ALTER TABLE `users` ADD `welcome_dismissed_at` integer;