import { use } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { WorkspaceShell } from "~/features/workspace/components/workspace-shell";
import { hasUnreadReleases } from "~/features/guide/guide.server";
import { WorkspaceSwitcher } from "~/features/teams/components/workspace-switcher";
import { currentWorkspace } from "~/features/teams/workspace.server";
import { FrameContext } from "~/features/workspace/frame-context";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/layout";
import type { loader as rootLoader } from "~/root";
import { TrialCountdown } from "~/features/billing/components/trial-countdown";

/**
 * The signed-in member's pages share one frame: the workspace shell (sidebar, drawer, top bar).
 * The frame only: every child loader and action checks the member and its objects itself (they
 * run in parallel). The folded sidebar and What's new's dot come from the account row the session
 * already read (no round trip); the workspace switcher's current team is one read, only when a
 * team's workspace is chosen.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  // The team workspace chosen in this browser (one read, and none while it is the member's own).
  const workspace = await currentWorkspace(serviceContextFor(context), user.id, request);
  return { sidebarCollapsed: user.sidebarCollapsed, hasNewReleases: hasUnreadReleases(user.whatsNewSeen), workspace: workspace ? { id: workspace.id, name: workspace.name } : null };
}

function Frame({ children }: { children: React.ReactNode }) {
  const { user, devTools } = use(FrameContext);
  const frame = useRouteLoaderData<typeof loader>("routes/workspace/layout");
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <WorkspaceShell
      account={<AccountMenu user={user} />}
      workspace={
        <>
          <TrialCountdown trial={root?.trial ?? null} />
          <WorkspaceSwitcher current={frame?.workspace ?? null} />
        </>
      } initialCollapsed={frame?.sidebarCollapsed ?? false} devTools={devTools} badges={frame?.hasNewReleases ? { "whats-new": "new release notes" } : {}}>
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
