CREATE TABLE `favorites` (
	`user_id` text NOT NULL,
	`item_type` text NOT NULL,
	`item_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `item_type`, `item_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `favorites_item_idx` ON `favorites` (`item_id`);--> statement-breakpoint
CREATE TABLE `file_metadata` (
	`file_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`file_id`, `key`),
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `file_tags` (
	`file_id` text NOT NULL,
	`space_id` text NOT NULL,
	`tag` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`file_id`, `tag`),
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `file_tags_space_tag_idx` ON `file_tags` (`space_id`,`tag`,`file_id`);--> statement-breakpoint
CREATE TABLE `file_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`file_id` text NOT NULL,
	`space_id` text NOT NULL,
	`version` integer NOT NULL,
	`r2_key` text NOT NULL,
	`size` integer NOT NULL,
	`content_type` text NOT NULL,
	`sha256` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_versions_file_version_unique` ON `file_versions` (`file_id`,`version`);--> statement-breakpoint
CREATE INDEX `file_versions_space_idx` ON `file_versions` (`space_id`,`size`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`folder_id` text NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`content_type` text NOT NULL,
	`sha256` text,
	`r2_key` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`uploaded_by` text,
	`is_template` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`trashed_at` integer,
	`trash_root_id` text,
	`trashed_by` text,
	`original_folder_id` text,
	`original_path` text,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_r2_key_unique` ON `files` (`r2_key`);--> statement-breakpoint
CREATE INDEX `files_folder_name_idx` ON `files` (`folder_id`,`name`,`id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `files_folder_created_idx` ON `files` (`folder_id`,`created_at`,`id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `files_folder_size_idx` ON `files` (`folder_id`,`size`,`id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `files_space_created_idx` ON `files` (`space_id`,`created_at`,`id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `files_space_sha_idx` ON `files` (`space_id`,`sha256`) WHERE trashed_at IS NULL AND sha256 IS NOT NULL;--> statement-breakpoint
CREATE INDEX `files_space_template_idx` ON `files` (`space_id`,`name`) WHERE trashed_at IS NULL AND is_template = 1;--> statement-breakpoint
CREATE INDEX `files_trash_idx` ON `files` (`space_id`,`trashed_at`) WHERE trashed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `files_trash_root_idx` ON `files` (`trash_root_id`) WHERE trash_root_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `files_space_size_idx` ON `files` (`space_id`,`size`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`parent_id` text,
	`kind` text DEFAULT 'regular' NOT NULL,
	`label` text NOT NULL,
	`color` text,
	`icon` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`trashed_at` integer,
	`trash_root_id` text,
	`trashed_by` text,
	`original_parent_id` text,
	`original_path` text,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `folders_children_idx` ON `folders` (`space_id`,`parent_id`,`label`,`id`) WHERE trashed_at IS NULL;--> statement-breakpoint
CREATE INDEX `folders_trash_idx` ON `folders` (`space_id`,`trashed_at`) WHERE trashed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `folders_trash_root_idx` ON `folders` (`trash_root_id`) WHERE trash_root_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `folders_kind_idx` ON `folders` (`space_id`,`kind`);--> statement-breakpoint
CREATE UNIQUE INDEX `folders_space_special_unique` ON `folders` (`space_id`,`kind`) WHERE kind IN ('root', 'inbox', 'outbox');--> statement-breakpoint
CREATE TABLE `r2_deletions` (
	`key` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `space_members` (
	`space_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`space_id`, `user_id`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_members_user_idx` ON `space_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `spaces` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spaces_owner_idx` ON `spaces` (`owner_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `spaces_personal_owner_unique` ON `spaces` (`owner_id`) WHERE kind = 'personal';--> statement-breakpoint
CREATE TABLE `upload_parts` (
	`upload_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `part_number`),
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`folder_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`relative_path` text DEFAULT '' NOT NULL,
	`length` integer NOT NULL,
	`part_size` integer NOT NULL,
	`offset` integer DEFAULT 0 NOT NULL,
	`r2_key` text NOT NULL,
	`r2_upload_id` text,
	`status` text DEFAULT 'active' NOT NULL,
	`file_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `uploads_space_status_idx` ON `uploads` (`space_id`,`status`);--> statement-breakpoint
CREATE INDEX `uploads_expires_idx` ON `uploads` (`expires_at`);