import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files } from "~/db/schema";

/** A file by its id, live or in the trash (a made file's id says whether it was saved before). */
export async function findMadeFile(db: Database, id: string): Promise<{ id: string; name: string; folderId: string; trashedAt: Date | null } | undefined> {
  return db.select({ id: files.id, name: files.name, folderId: files.folderId, trashedAt: files.trashedAt }).from(files).where(eq(files.id, id)).get();
}
