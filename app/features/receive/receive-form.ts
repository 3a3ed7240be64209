/** The fields editor's hidden JSON value (a malformed one is left for the schema to refuse). */
export function readFieldsInput(form: FormData): unknown {
  try {
    return JSON.parse(String(form.get("fields") ?? "").trim() || "[]");
  } catch {
    return "invalid";
  }
}

/**
 * A receive page's options from its HTML form (the member's new and edit pages post plain forms,
 * so they work without JavaScript). Empty fields mean "none"; the service validates the rest.
 */
export function readReceivePageForm(form: FormData, mode: "new" | "edit"): Record<string, unknown> {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const number = (name: string) => (text(name) ? Number(text(name)) : null);
  const deadline = text("deadlineAt");
  const password = text("password");
  const fields = readFieldsInput(form);
  const options: Record<string, unknown> = {
    kind: text("kind"),
    title: text("title"),
    message: text("message"),
    // <input type="datetime-local"> is read as UTC (the page says so).
    deadlineAt: deadline ? new Date(`${deadline}Z`).toISOString() : null,
    allowedTypes: text("allowedTypes")
      .split(/[\s,;]+/)
      .filter(Boolean),
    maxFileMb: number("maxFileMb"),
    maxFilesPerUploader: number("maxFilesPerUploader"),
    perUploaderFolders: form.get("perUploaderFolders") === "on",
    requireName: form.get("requireName") === "on",
    requireEmail: form.get("requireEmail") === "on",
    fields,
    formId: text("formId") || null,
    // Only members with cases see the choice; a form without it leaves the page's as it is.
    ...(form.has("caseTypeId") ? { caseTypeId: text("caseTypeId") || null } : {}),
    brandColor: text("brandColor") || null,
    slug: text("slug") || null,
  };
  if (mode === "new") {
    options.folderId = text("folderId");
    options.password = password || null;
  } else {
    options.isOpen = form.get("isOpen") === "on";
    // Left empty on the edit page: the password stays as it is, unless "remove" is ticked.
    if (form.get("removePassword") === "on") options.password = null;
    else if (password) options.password = password;
  }
  return options;
}
