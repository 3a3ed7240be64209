ALTER TABLE `datarooms` ADD `team_id` text REFERENCES teams(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `datarooms_team_idx` ON `datarooms` (`team_id`) WHERE team_id IS NOT NULL;