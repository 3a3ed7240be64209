CREATE TABLE `search_entries` (
	`doc_id` integer PRIMARY KEY NOT NULL,
	`item_type` text NOT NULL,
	`item_id` text NOT NULL,
	`content_state` text DEFAULT 'none' NOT NULL,
	`content_key` text,
	`content_chars` integer DEFAULT 0 NOT NULL,
	`indexed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_entries_item_unique` ON `search_entries` (`item_id`);--> statement-breakpoint
CREATE INDEX `search_entries_pending_idx` ON `search_entries` (`doc_id`) WHERE content_state = 'pending';--> statement-breakpoint
-- Written by hand (drizzle-kit does not model virtual tables or triggers), ADR 028. The text of
-- every file and folder: `name` from the live row, `body` from the extraction job, `scope` the
-- item's space id without hyphens (one token), so a search reads only the member's spaces from the
-- index itself. rowid = search_entries.doc_id.
CREATE VIRTUAL TABLE `search_text` USING fts5(`name`, `body`, `scope`, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');--> statement-breakpoint
CREATE TRIGGER `search_files_insert` AFTER INSERT ON `files`
BEGIN
	INSERT INTO `search_entries` (`item_type`, `item_id`, `content_state`, `content_key`) VALUES ('file', NEW.`id`, 'pending', NEW.`r2_key`);
	INSERT INTO `search_text` (`rowid`, `name`, `body`, `scope`) VALUES ((SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`), NEW.`name`, '', replace(NEW.`space_id`, '-', ''));
END;--> statement-breakpoint
CREATE TRIGGER `search_files_rename` AFTER UPDATE OF `name` ON `files` WHEN NEW.`name` IS NOT OLD.`name`
BEGIN
	UPDATE `search_text` SET `name` = NEW.`name` WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`);
END;--> statement-breakpoint
-- A new version: the old text no longer describes the file; the job reads the new one.
CREATE TRIGGER `search_files_new_content` AFTER UPDATE OF `r2_key` ON `files` WHEN NEW.`r2_key` IS NOT OLD.`r2_key`
BEGIN
	UPDATE `search_entries` SET `content_state` = 'pending', `content_key` = NEW.`r2_key`, `content_chars` = 0, `indexed_at` = NULL WHERE `item_id` = NEW.`id`;
	UPDATE `search_text` SET `body` = '' WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`);
END;--> statement-breakpoint
-- Moved to another space (a room, or out of one).
CREATE TRIGGER `search_files_move` AFTER UPDATE OF `space_id` ON `files` WHEN NEW.`space_id` IS NOT OLD.`space_id`
BEGIN
	UPDATE `search_text` SET `scope` = replace(NEW.`space_id`, '-', '') WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`);
END;--> statement-breakpoint
CREATE TRIGGER `search_files_delete` AFTER DELETE ON `files`
BEGIN
	DELETE FROM `search_text` WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = OLD.`id`);
	DELETE FROM `search_entries` WHERE `item_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_folders_insert` AFTER INSERT ON `folders` WHEN NEW.`kind` <> 'root'
BEGIN
	INSERT INTO `search_entries` (`item_type`, `item_id`) VALUES ('folder', NEW.`id`);
	INSERT INTO `search_text` (`rowid`, `name`, `body`, `scope`) VALUES ((SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`), NEW.`label`, '', replace(NEW.`space_id`, '-', ''));
END;--> statement-breakpoint
CREATE TRIGGER `search_folders_rename` AFTER UPDATE OF `label` ON `folders` WHEN NEW.`label` IS NOT OLD.`label`
BEGIN
	UPDATE `search_text` SET `name` = NEW.`label` WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`);
END;--> statement-breakpoint
-- Moved to another space (a room, or out of one).
CREATE TRIGGER `search_folders_move` AFTER UPDATE OF `space_id` ON `folders` WHEN NEW.`space_id` IS NOT OLD.`space_id`
BEGIN
	UPDATE `search_text` SET `scope` = replace(NEW.`space_id`, '-', '') WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = NEW.`id`);
END;--> statement-breakpoint
CREATE TRIGGER `search_folders_delete` AFTER DELETE ON `folders`
BEGIN
	DELETE FROM `search_text` WHERE `rowid` = (SELECT `doc_id` FROM `search_entries` WHERE `item_id` = OLD.`id`);
	DELETE FROM `search_entries` WHERE `item_id` = OLD.`id`;
END;--> statement-breakpoint
-- What exists already: names now, contents by the catch-up job.
INSERT INTO `search_entries` (`item_type`, `item_id`, `content_state`, `content_key`) SELECT 'file', `id`, 'pending', `r2_key` FROM `files`;--> statement-breakpoint
INSERT INTO `search_entries` (`item_type`, `item_id`) SELECT 'folder', `id` FROM `folders` WHERE `kind` <> 'root';--> statement-breakpoint
INSERT INTO `search_text` (`rowid`, `name`, `body`, `scope`)
	SELECT e.`doc_id`, COALESCE(f.`name`, d.`label`), '', replace(COALESCE(f.`space_id`, d.`space_id`), '-', '') FROM `search_entries` e
	LEFT JOIN `files` f ON f.`id` = e.`item_id` LEFT JOIN `folders` d ON d.`id` = e.`item_id`;
