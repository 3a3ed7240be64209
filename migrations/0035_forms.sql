CREATE TABLE `form_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`form_id` text NOT NULL,
	`version` integer NOT NULL,
	`answers` text NOT NULL,
	`is_test` integer DEFAULT false NOT NULL,
	`pages_seen` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_submissions_form_created_idx` ON `form_submissions` (`form_id`,`is_test`,`created_at`);--> statement-breakpoint
CREATE TABLE `form_versions` (
	`form_id` text NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`definition` text NOT NULL,
	`published_at` integer NOT NULL,
	PRIMARY KEY(`form_id`, `version`),
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `forms` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`draft` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`published_version` integer,
	`published_revision` integer,
	`is_template` integer DEFAULT false NOT NULL,
	`is_open` integer DEFAULT true NOT NULL,
	`closes_at` integer,
	`max_submissions` integer,
	`thank_you_message` text DEFAULT '' NOT NULL,
	`redirect_url` text,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `forms_user_updated_idx` ON `forms` (`user_id`,`updated_at`);