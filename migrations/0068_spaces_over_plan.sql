ALTER TABLE `spaces` ADD `over_plan_at` integer;--> statement-breakpoint
ALTER TABLE `spaces` ADD `over_plan_reason` text;