import { GlobalBox } from "~/features/files/components/global-box";
import { getGlobalBox } from "~/features/files/folders.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/global-outbox";

export const meta: Route.MetaFunction = () => titleMeta("Global outbox");

export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return runLoader(async () => ({ page: await getGlobalBox(serviceContextFor(context), member.user.id, "outbox", cursor) }));
}

export default function GlobalOutbox({ loaderData }: Route.ComponentProps) {
  return <GlobalBox page={loaderData.page} title="Global outbox" />;
}
