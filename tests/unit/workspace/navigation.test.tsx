import { fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_TIER_PERMISSIONS, FEATURES, tierAtLeast, type Tier } from "~/features/access/access.constants";
import { resetUserStoreForTests, UserPagePropsContext, type UserPageProps } from "~/features/access/user-store";
import { roomPlace, visibleRoomTabs } from "~/features/datarooms/room-navigation";
import { effectivePermissions } from "~/features/datarooms/datarooms.permissions";
import { WorkspaceShell } from "~/features/workspace/components/workspace-shell";
import { activeNavItemId, allNavItems } from "~/features/workspace/navigation";

const patch = vi.fn((..._args: unknown[]) => Promise.resolve({}));
vi.mock("~/lib/http", () => ({ http: { patch: (...args: unknown[]) => patch(...args) } }));
vi.mock("~/components/ui/toast", () => ({ showToast: vi.fn() }));

/** What the root loader hands the page for a member on a tier: its permissions and the features its plan includes. */
const memberOn = (tier: Tier, id: string): UserPageProps => ({
  user: { id },
  tier,
  permissions: [...DEFAULT_TIER_PERMISSIONS[tier]],
  features: Object.fromEntries(FEATURES.map((feature) => [feature.name, tierAtLeast(tier, feature.requiredTier)])),
});
const freeMember = memberOn("free", "u1");
const proMember = memberOn("pro", "u2");
const businessMember = memberOn("business", "u3");

function renderShell(member: UserPageProps, path: string, options: { collapsed?: boolean; devTools?: boolean } = {}, page: ReactNode = <h1>Page</h1>) {
  return render(
    <UserPagePropsContext value={member}>
      <MemoryRouter initialEntries={[path]}>
        <WorkspaceShell account={<span>Account</span>} initialCollapsed={options.collapsed ?? false} devTools={options.devTools ?? false}>
          {page}
        </WorkspaceShell>
      </MemoryRouter>
    </UserPagePropsContext>,
  );
}

beforeEach(() => {
  resetUserStoreForTests();
  patch.mockClear();
});

describe("the navigation registry", () => {
  it("marks the most specific item as the current page", () => {
    expect(activeNavItemId("/folders")).toBe("folders");
    expect(activeNavItemId("/folders/inbox")).toBe("inbox");
    expect(activeNavItemId("/folders/global-outbox")).toBe("outbox");
    expect(activeNavItemId("/folders/2b7c9a0e-1111-4222-8333-944455556666/gallery")).toBe("folders");
    expect(activeNavItemId("/files/recent")).toBe("recent");
    expect(activeNavItemId("/files/6a4c9a0e-1111-4222-8333-944455556666")).toBe("folders");
    expect(activeNavItemId("/datarooms/archived")).toBe("archived-rooms");
    expect(activeNavItemId("/dataroom/6a4c9a0e-1111-4222-8333-944455556666/users")).toBe("datarooms");
    expect(activeNavItemId("/secrets/requests/new")).toBe("secrets");
    expect(activeNavItemId("/profile/activity")).toBe("settings");
    expect(activeNavItemId("/trash-can")).toBeNull();
  });

  it("holds no developer tool and no item twice", () => {
    const items = allNavItems();
    expect(items.map((item) => item.to)).not.toContain("/ui");
    expect(items.map((item) => item.to)).not.toContain("/dev/mail");
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(new Set(items.map((item) => item.to)).size).toBe(items.length);
  });
});

describe("the workspace shell", () => {
  it("shows a free member the plan's locked pages as locked, naming the plan, and the rest as links", () => {
    renderShell(freeMember, "/folders");
    const nav = within(screen.getByTestId("sidebar")).getByRole("navigation", { name: "Workspace" });
    expect(within(nav).getByRole("button", { name: "Open Tags. Locked: available on the Basic plan" })).toBeTruthy();
    expect(within(nav).getByRole("button", { name: "Open Duplicates. Locked: available on the Pro plan" })).toBeTruthy();
    expect(within(nav).queryByRole("link", { name: "Tags" })).toBeNull();
    expect(within(nav).getByRole("link", { name: "All folders" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("link", { name: "Secrets" }).getAttribute("href")).toBe("/secrets");
    expect(within(nav).getByRole("link", { name: "Receive pages" })).toBeTruthy();
  });

  it("gives a Business member every page of the registry as a link", () => {
    renderShell(businessMember, "/files/tags");
    const nav = within(screen.getByTestId("sidebar")).getByRole("navigation", { name: "Workspace" });
    for (const item of allNavItems()) expect(within(nav).getByRole("link", { name: item.label }).getAttribute("href")).toBe(item.to);
    expect(within(nav).getByRole("link", { name: "Tags" }).getAttribute("aria-current")).toBe("page");
  });

  it("offers the developer tools in the footer only when asked to, never in the navigation", () => {
    renderShell(proMember, "/folders", { devTools: true });
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Interface kit" }).getAttribute("href")).toBe("/ui");
    expect(within(footer).getByRole("link", { name: "Mailbox" }).getAttribute("href")).toBe("/dev/mail");
    expect(within(screen.getByTestId("sidebar")).queryByRole("link", { name: "Interface kit" })).toBeNull();
    renderShell(proMember, "/folders", { devTools: false });
    expect(screen.getAllByRole("contentinfo")[1]!.textContent).not.toContain("Mailbox");
  });

  it("folds the sidebar to icons and remembers the choice on the account", async () => {
    renderShell(proMember, "/folders", { collapsed: false });
    const sidebar = screen.getByTestId("sidebar");
    const toggle = within(sidebar).getByRole("button", { name: "Collapse navigation" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(toggle);
    expect(sidebar.getAttribute("data-collapsed")).toBe("true");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    // Folded, every item keeps its name for screen readers and a tooltip for the pointer.
    expect(within(sidebar).getByRole("link", { name: "Share links" }).getAttribute("title")).toBe("Share links");
    await vi.waitFor(() => expect(patch).toHaveBeenCalledWith("/api/workspace/preferences", { sidebarCollapsed: true }));
  });

  it("starts folded when the member left it so", () => {
    renderShell(proMember, "/folders", { collapsed: true });
    expect(screen.getByTestId("sidebar").getAttribute("data-collapsed")).toBe("true");
  });
});

describe("a room's tabs", () => {
  const id = "6a4c9a0e-1111-4222-8333-944455556666";

  it("place every room page under one of six tabs", () => {
    expect(roomPlace(`/dataroom/${id}`)).toEqual({ tab: "files", path: "" });
    expect(roomPlace(`/dataroom/${id}/folders/abc`)).toEqual({ tab: "files", path: "" });
    expect(roomPlace(`/dataroom/${id}/sessions`)).toEqual({ tab: "people", path: "sessions" });
    expect(roomPlace(`/dataroom/${id}/comments`)).toEqual({ tab: "activity", path: "comments" });
    expect(roomPlace(`/dataroom/${id}/security`)).toEqual({ tab: "settings", path: "security" });
    expect(roomPlace(`/dataroom/${id}/sharing`)).toEqual({ tab: "sharing", path: "sharing" });
    expect(roomPlace(`/dataroom/${id}/workflows`)).toEqual({ tab: "activity", path: "workflows" });
    expect(roomPlace("/datarooms")).toBeNull();
  });

  it("offer a member only what their permissions open, each tab leading to its first page", () => {
    const tabs = visibleRoomTabs(id, effectivePermissions("member"));
    expect(tabs.map((tab) => [tab.label, tab.href])).toEqual([
      ["Files", `/dataroom/${id}`],
      ["People", `/dataroom/${id}/users`],
      ["Activity", `/dataroom/${id}/collaboration`],
    ]);
    const admin = visibleRoomTabs(id, effectivePermissions("admin"));
    expect(admin.find((tab) => tab.id === "settings")?.pages.map((page) => page.label)).toEqual(["Room profile", "General", "Security"]);
    expect(admin.find((tab) => tab.id === "activity")?.href).toBe(`/dataroom/${id}/activities`);
    // The room's workflows are for those who manage it.
    expect(admin.find((tab) => tab.id === "activity")?.pages.map((page) => page.label)).toContain("Workflows");
    expect(tabs.find((tab) => tab.id === "activity")?.pages.map((page) => page.label)).not.toContain("Workflows");
  });
});
