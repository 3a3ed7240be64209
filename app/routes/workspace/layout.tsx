import { use } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { WorkspaceShell } from "~/features/workspace/components/workspace-shell";
import { hasUnreadReleases } from "~/features/guide/guide.server";
import { FrameContext } from "~/features/workspace/frame-context";
import type { Route } from "./+types/layout";

/**
 * The signed-in member's pages share one frame: the workspace shell (sidebar, drawer, top bar).
 * The frame only: every child loader and action checks the member and its objects itself (they
 * run in parallel). The folded sidebar and What's new's dot come from the account row the session
 * already read (no round trip).
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { sidebarCollapsed: user.sidebarCollapsed, hasNewReleases: hasUnreadReleases(user.whatsNewSeen) };
}

function Frame({ children }: { children: React.ReactNode }) {
  const { user, devTools } = use(FrameContext);
  const frame = useRouteLoaderData<typeof loader>("routes/workspace/layout");
  return (
    <WorkspaceShell account={<AccountMenu user={user} />} initialCollapsed={frame?.sidebarCollapsed ?? false} devTools={devTools} badges={frame?.hasNewReleases ? { "whats-new": "new release notes" } : {}}>
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
