import { use } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { WorkspaceShell } from "~/features/workspace/components/workspace-shell";
import { FrameContext } from "~/features/workspace/frame-context";
import type { Route } from "./+types/layout";

/**
 * The signed-in member's pages share one frame: the workspace shell (sidebar, drawer, top bar).
 * The frame only: every child loader and action checks the member and its objects itself (they
 * run in parallel). The folded sidebar comes from the account row the session already read.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { sidebarCollapsed: user.sidebarCollapsed };
}

function Frame({ children }: { children: React.ReactNode }) {
  const { user, devTools } = use(FrameContext);
  const frame = useRouteLoaderData<typeof loader>("routes/workspace/layout");
  return (
    <WorkspaceShell account={<AccountMenu user={user} />} initialCollapsed={frame?.sidebarCollapsed ?? false} devTools={devTools}>
      {children}
    </WorkspaceShell>
  );
}

export default function WorkspaceLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Frame>
      <ErrorPage error={error} />
    </Frame>
  );
}
