import { Outlet, useRouteLoaderData } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { WorkspaceShell } from "~/features/workspace/components/workspace-shell";
import { readConfig } from "~/lib/config.server";
import { requestContext } from "~/lib/request-context.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The signed-in member's pages share one frame: the workspace shell (sidebar, drawer, top bar).
 * The frame only: every child loader and action checks the member and its objects itself (they
 * run in parallel). The folded sidebar comes from the account row the session already read.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { sidebarCollapsed: user.sidebarCollapsed, devTools: !readConfig(context.get(requestContext).env).isProduction };
}

function Frame({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const frame = useRouteLoaderData<typeof loader>("routes/workspace/layout");
  return (
    <WorkspaceShell account={<AccountMenu user={rootData?.user ?? null} />} initialCollapsed={frame?.sidebarCollapsed ?? false} devTools={frame?.devTools ?? false}>
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
