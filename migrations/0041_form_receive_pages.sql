ALTER TABLE `receive_pages` ADD `form_id` text REFERENCES forms(id) ON DELETE SET NULL;
