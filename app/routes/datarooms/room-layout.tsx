import { Outlet, useLocation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { RoomHeader } from "~/features/datarooms/components/room-header";
import { getRoomHeader } from "~/features/datarooms/room-header.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/room-layout";

/**
 * Every page of one room under the room's header (issue 36). The header only: each page's own
 * loader and action still asks the room's authority for its own permission (they run in parallel,
 * and the authority answers once per request).
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ room: await getRoomHeader(serviceContextFor(context), user.id, params.id) }));
}

export default function RoomLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <>
      <RoomHeader room={loaderData.room} pathname={pathname} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
