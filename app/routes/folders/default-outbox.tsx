import { redirect } from "react-router";
import { defaultFolderId } from "~/features/files/folders.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/default-outbox";

/** The member's default outbox (spec §2 "Folders: default outbox") is a folder page of its own. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const uid = await defaultFolderId(serviceContextFor(context), member.user.id, "outbox");
  return redirect(`/folders/${uid}`);
}
