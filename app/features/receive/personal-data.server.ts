import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { deleteFieldSetsOf, deleteReceivePagesOf, listFieldSetsOf, listReceivePagesOf } from "./receive.queries.server";
import { deleteSubmissionsOf, listSubmissionsOf } from "./receive-submissions.queries.server";

/**
 * A member's receive pages, saved sets of fields and the record of what people sent through them
 * (who, their answers, how many files): the export lists them (never a token, grant or password
 * hash); erasure deletes them. The files themselves are in the member's files (exported and
 * erased with those).
 */
export const receivePagesPersonalData = definePersonalDataSource({
  name: "receive pages",
  async export(ctx, userId) {
    const rows = await listReceivePagesOf(ctx.db, userId);
    const sets = await listFieldSetsOf(ctx.db, userId);
    const submissions = await listSubmissionsOf(ctx.db, userId);
    const records = [
      ...(sets.length > 0 ? [{ path: "receive-pages/field-sets.json", description: "Your saved sets of fields for receive pages.", data: sets.map((set) => ({ id: set.id, name: set.name, fields: set.fields })) }] : []),
      ...(submissions.length > 0
        ? [
            {
              path: "receive-pages/received.json",
              description: "What people sent through your receive pages: who, their answers, how many files and when.",
              data: submissions.map((row) => ({ id: row.id, page: row.pageTitle, name: row.uploaderName, email: row.uploaderEmail, answers: row.answers, files: row.fileCount, bytes: row.bytes, folder: row.folderLabel, receivedAt: row.createdAt.toISOString() })),
            },
          ]
        : []),
    ];
    if (rows.length === 0) return records;
    return [
      ...records,
      {
        path: "receive-pages/pages.json",
        description: "Your receive pages: title, message, where files go, their rules and dates.",
        data: rows.map(({ page, spaceName, folderLabel }) => ({
          id: page.id,
          kind: page.kind,
          title: page.title,
          message: page.message,
          customAddress: page.slug,
          destination: { space: spaceName, folder: folderLabel },
          deadlineAt: page.deadlineAt?.toISOString() ?? null,
          hasPassword: page.passwordHash !== null,
          allowedTypes: page.allowedTypes,
          fields: page.fields,
          isOpen: page.isOpen,
          createdAt: page.createdAt.toISOString(),
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    const logos = (await listReceivePagesOf(ctx.db, userId)).flatMap(({ page }) => (page.logoKey ? [page.logoKey] : []));
    await deleteReceivePagesOf(ctx.db, userId);
    await deleteFieldSetsOf(ctx.db, userId);
    await deleteSubmissionsOf(ctx.db, userId);
    return { r2Keys: logos };
  },
});
