CREATE TABLE `secret_answer_files` (
	`id` text PRIMARY KEY NOT NULL,
	`response_id` text NOT NULL,
	`request_id` text NOT NULL,
	`seq` integer NOT NULL,
	`stored_size` integer NOT NULL,
	`r2_key` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`upload_token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`response_id`) REFERENCES `secret_request_responses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secret_answer_files_upload_token_hash_unique` ON `secret_answer_files` (`upload_token_hash`);--> statement-breakpoint
CREATE INDEX `secret_answer_files_response_idx` ON `secret_answer_files` (`response_id`,`seq`);--> statement-breakpoint
CREATE INDEX `secret_answer_files_request_idx` ON `secret_answer_files` (`request_id`);