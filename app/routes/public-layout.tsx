import { use } from "react";
import { Outlet } from "react-router";
import { AppShell, type NavItem } from "~/components/app-shell";
import { DevToolsLinks } from "~/components/dev-tools-links";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { FrameContext } from "~/features/workspace/frame-context";

/**
 * The frame of the pages anyone may open (home, privacy, sign-in, share links, secrets, receive
 * pages, the not-found page): a light header, so visitors' first load stays small (G5, G13).
 * Members' own pages use the workspace shell (routes/workspace/layout.tsx).
 */
export function publicNavigation(isSignedIn: boolean): NavItem[] {
  const items: NavItem[] = [{ to: "/", label: "Home" }];
  if (isSignedIn) items.push({ to: "/dashboard", label: "Your dashboard" });
  else items.push({ to: "/showcase", label: "Showcase" });
  items.push({ to: "/privacy-policy", label: "Privacy" });
  return items;
}

export function PublicFrame({ children }: { children: React.ReactNode }) {
  const { user, devTools } = use(FrameContext);
  return (
    <AppShell navItems={publicNavigation(user !== null)} account={<AccountMenu user={user} />} footer={devTools ? <DevToolsLinks /> : null}>
      {children}
    </AppShell>
  );
}

export default function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
