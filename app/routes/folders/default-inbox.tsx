import { redirect } from "react-router";
import { defaultFolderId } from "~/features/files/folders.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/default-inbox";

/** The member's default inbox (spec §2 "Folders: default inbox") is a folder page of its own. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const uid = await defaultFolderId(serviceContextFor(context), member.user.id, "inbox");
  return redirect(`/folders/${uid}`);
}
