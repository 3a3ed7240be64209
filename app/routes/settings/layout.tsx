import { Outlet } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { SettingsFrame } from "~/features/auth/components/settings-frame";
import { requireMember } from "~/features/auth/auth-guard.server";
import type { Route } from "./+types/layout";

/** The frame only; every child loader and action checks the member itself (they run in parallel). */
export function loader({ context, request }: Route.LoaderArgs) {
  requireMember(context, request);
  return null;
}

export default function SettingsLayout() {
  return (
    <SettingsFrame>
      <Outlet />
    </SettingsFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <SettingsFrame>
      <ErrorPage error={error} />
    </SettingsFrame>
  );
}
