CREATE TABLE `space_keys` (
	`space_id` text PRIMARY KEY NOT NULL,
	`wrapped_key` text NOT NULL,
	`kek_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
