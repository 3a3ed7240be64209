import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { DEFAULT_TIER_PERMISSIONS } from "~/features/access/access.constants";
import { checkFeature } from "~/features/access/access-check";
import type * as AccessCheck from "~/features/access/access-check";
import {
  Restricted,
  restrictedMessages,
  useRestrictedAction,
  type RestrictedTarget,
} from "~/features/access/components/restricted";
import {
  describeLimit,
  getUpgradeModalState,
  openUpgradeModal,
  resetUpgradeModalForTests,
  UpgradeModalHost,
} from "~/features/access/components/upgrade-modal";
import { resetUserStoreForTests, UserPagePropsContext, type UserPageProps } from "~/features/access/user-store";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

vi.mock("~/components/ui/toast", () => ({ showToast: vi.fn() }));
vi.mock("~/features/access/access-check", async (importOriginal) => {
  const actual = await importOriginal<typeof AccessCheck>();
  return { ...actual, checkFeature: vi.fn(actual.checkFeature) };
});

const { showToast } = await import("~/components/ui/toast");
const toastMock = showToast as unknown as Mock;

const freeMember: UserPageProps = {
  user: { id: "u1" },
  tier: "free",
  permissions: [...DEFAULT_TIER_PERMISSIONS.free],
  features: { audit_logs: false, dataroom_create: true },
};
const proMember: UserPageProps = { ...freeMember, tier: "pro", permissions: [...DEFAULT_TIER_PERMISSIONS.pro], features: { audit_logs: true } };

function renderAs(member: UserPageProps, ui: ReactNode) {
  return render(<UserPagePropsContext value={member}>{ui}</UserPagePropsContext>);
}

beforeEach(() => {
  toastMock.mockClear();
  resetUserStoreForTests();
  resetUpgradeModalForTests();
});

afterEach(() => {
  setHttpEffects(null);
});

describe("a locked control", () => {
  it("is dimmed behind a lock, names the plan in its tooltip and announces itself as locked", () => {
    renderAs(
      freeMember,
      <Restricted feature="audit_logs">
        <button type="button">Open</button>
      </Restricted>,
    );
    const locked = screen.getByRole("button", { name: "Locked: available on the Pro plan" });
    expect(locked.getAttribute("tabindex")).toBe("0");
    expect(locked.parentElement!.querySelector('[data-testid="restricted-tooltip"]')!.textContent).toBe("Available on the Pro plan");
    const child = within(locked).getByText("Open");
    expect(child.closest("[inert]")).not.toBeNull();
    expect(child.closest("[inert]")!.getAttribute("aria-hidden")).toBe("true");
    expect(screen.getAllByRole("button")).toHaveLength(1);
    expect(child.closest("[inert]")!.className).toContain("opacity-50");
    expect(locked.querySelector("svg")).not.toBeNull();
  });

  it("puts what the control does in front of the announcement when given a label", () => {
    renderAs(
      freeMember,
      <Restricted feature="audit_logs" label="Open Audit logs">
        <button type="button">Open</button>
      </Restricted>,
    );
    expect(screen.getByRole("button", { name: "Open Audit logs. Locked: available on the Pro plan" })).toBeTruthy();
  });

  it("blocks a click before it reaches the control, shows the warning toast for 5 s and opens the upgrade modal", () => {
    const onChildClick = vi.fn();
    const onParentClick = vi.fn();
    renderAs(
      freeMember,
      <div onClick={onParentClick}>
        <Restricted feature="audit_logs">
          <button type="button" onClick={onChildClick}>
            Open
          </button>
        </Restricted>
      </div>,
    );
    fireEvent.click(screen.getByText("Open"));
    expect(onChildClick).not.toHaveBeenCalled();
    expect(onParentClick).not.toHaveBeenCalled();
    expect(toastMock).toHaveBeenCalledWith("You don't have the required permission: Audit logs", expect.objectContaining({ type: "warning", timeout: 5000 }));
    expect(getUpgradeModalState()).toEqual({ isOpen: true, requiredTier: "pro", reason: "Audit logs" });
  });

  it.each(["Enter", " "])("opens the upgrade modal when %j is pressed on it", (key) => {
    renderAs(
      freeMember,
      <Restricted permission="feature.analytics">
        <button type="button">Analytics</button>
      </Restricted>,
    );
    fireEvent.keyDown(screen.getByRole("button", { name: "Locked: available on the Pro plan" }), { key });
    expect(getUpgradeModalState()).toMatchObject({ isOpen: true, requiredTier: "pro" });
    expect(toastMock).toHaveBeenCalledWith("You don't have the required permission: Analytics", expect.anything());
  });

  it("offers the Business plan for a permission no plan lists (the default required tier)", () => {
    renderAs(
      freeMember,
      <Restricted permission="dataroom.delete_everything">
        <button type="button">Delete</button>
      </Restricted>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Locked: available on the Business plan" }));
    expect(getUpgradeModalState().requiredTier).toBe("business");
    expect(toastMock).toHaveBeenCalledWith("You don't have the required permission: dataroom.delete_everything", expect.anything());
  });

  it("names the plan it is given with requiredTier", () => {
    renderAs(
      freeMember,
      <Restricted permission="dataroom.delete_everything" requiredTier="custom">
        <button type="button">Delete</button>
      </Restricted>,
    );
    expect(screen.getByTestId("restricted-tooltip").textContent).toBe("Available on the Enterprise plan");
  });

  it("names the add-on for an add-on permission", () => {
    renderAs(
      freeMember,
      <Restricted permission="e_signature.access">
        <button type="button">Sign</button>
      </Restricted>,
    );
    expect(screen.getByTestId("restricted-tooltip").textContent).toBe("Available with the E-signatures add-on");
  });

  it("is not rendered at all with hideOnDenied", () => {
    const { container } = renderAs(
      freeMember,
      <Restricted feature="audit_logs" hideOnDenied>
        <button type="button">Open</button>
      </Restricted>,
    );
    expect(container.innerHTML).toBe("");
  });

  it("shows 'Error checking access permissions' (and no upgrade modal) when the check itself fails", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    (checkFeature as unknown as Mock).mockImplementation(() => {
      throw new Error("corrupt state");
    });
    try {
      renderAs(
        proMember,
        <Restricted feature="audit_logs">
          <button type="button">Open</button>
        </Restricted>,
      );
      fireEvent.click(screen.getByRole("button", { name: /^Locked:/ }));
      expect(toastMock).toHaveBeenCalledWith(restrictedMessages.checkFailed, expect.objectContaining({ type: "error" }));
      expect(restrictedMessages.checkFailed).toBe("Error checking access permissions");
      expect(getUpgradeModalState().isOpen).toBe(false);
    } finally {
      (checkFeature as unknown as Mock).mockReset();
      error.mockRestore();
    }
  });
});

describe("an allowed control", () => {
  it("is rendered exactly as its children, with no wrapper", () => {
    const onClick = vi.fn();
    const { container } = renderAs(
      proMember,
      <Restricted feature="audit_logs">
        <button type="button" onClick={onClick}>
          Open
        </button>
      </Restricted>,
    );
    expect(container.innerHTML).toBe('<button type="button">Open</button>');
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(toastMock).not.toHaveBeenCalled();
  });
});

describe("useRestrictedAction", () => {
  function Probe({ target, action }: { target: RestrictedTarget; action: () => void }) {
    const restricted = useRestrictedAction();
    return (
      <button type="button" onClick={() => restricted.run(target, action)}>
        {restricted.isAllowed(target) ? "allowed" : "denied"}
      </button>
    );
  }

  it("runs an allowed action", () => {
    const action = vi.fn();
    renderAs(proMember, <Probe target={{ feature: "audit_logs" }} action={action} />);
    fireEvent.click(screen.getByRole("button", { name: "allowed" }));
    expect(action).toHaveBeenCalledTimes(1);
  });

  it("turns a denied action into the toast and the upgrade modal", () => {
    const action = vi.fn();
    renderAs(freeMember, <Probe target="feature.watermarking" action={action} />);
    fireEvent.click(screen.getByRole("button", { name: "denied" }));
    expect(action).not.toHaveBeenCalled();
    expect(toastMock).toHaveBeenCalledWith("You don't have the required permission: Watermarking", expect.objectContaining({ timeout: 5000 }));
    expect(getUpgradeModalState()).toMatchObject({ isOpen: true, requiredTier: "pro" });
  });
});

describe("the upgrade modal", () => {
  const plans = {
    tier_requirements: [
      { tier: "free", label: "Free", limits: limits(2, 1024), features: ["dataroom_create"], permissions: [] },
      { tier: "pro", label: "Pro", limits: limits(20, 51200), features: ["audit_logs", "analytics"], permissions: [] },
      { tier: "custom", label: "Enterprise", limits: limits(-1, -1), features: [], permissions: [] },
    ],
  };

  function limits(datarooms: number, storage: number) {
    return {
      max_datarooms: datarooms,
      max_dataroom_storage_mb: storage,
      max_dataroom_files: 250,
      max_dataroom_folders: 1,
      max_dataroom_members: 3,
      max_dataroom_guests: -1,
      max_team_seats: 0,
    };
  }

  function serve(...responses: (() => Response)[]) {
    const fetchMock = vi.fn(async () => (responses.shift() ?? (() => new Response("", { status: 500 })))());
    setHttpEffects({ fetch: fetchMock as unknown as typeof fetch } satisfies Partial<HttpEffects>);
    return fetchMock;
  }

  const ok = () => new Response(JSON.stringify(plans), { status: 200, headers: { "content-type": "application/json" } });

  it("describes limits in words, with Unlimited for -1", () => {
    expect(describeLimit("max_datarooms", 2)).toBe("2 data rooms");
    expect(describeLimit("max_dataroom_folders", 1)).toBe("1 folder per data room");
    expect(describeLimit("max_dataroom_storage_mb", 1024)).toBe("1 GB of storage per data room");
    expect(describeLimit("max_dataroom_files", 2500)).toBe("2,500 files per data room");
    expect(describeLimit("max_dataroom_guests", -1)).toBe("Unlimited guests per data room");
    expect(describeLimit("max_dataroom_storage_mb", -1)).toBe("Unlimited storage per data room");
  });

  it("loads the plans when it opens and highlights the plan needed and the member's own", async () => {
    const fetchMock = serve(ok);
    renderAs(freeMember, <UpgradeModalHost contactEmail="plans@example.com" />);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).toBeNull();
    act(() => openUpgradeModal({ requiredTier: "pro", reason: "Audit logs" }));
    const dialog = await screen.findByRole("dialog", { name: "Upgrade to use Audit logs" });
    await waitFor(() => expect(within(dialog).getByTestId("plan-pro")).toBeTruthy());
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe("/api/features/tier-requirements");
    expect(within(dialog).getByText("Audit logs is available on the Pro plan and above.")).toBeTruthy();
    const pro = within(dialog).getByTestId("plan-pro");
    expect(pro.dataset.required).toBe("true");
    expect(within(pro).getByText("Needed for this")).toBeTruthy();
    expect(within(pro).getByText("Everything in Free, plus:")).toBeTruthy();
    expect(within(pro).getByText("Audit logs")).toBeTruthy();
    expect(within(pro).getByText("50 GB of storage per data room")).toBeTruthy();
    const free = within(dialog).getByTestId("plan-free");
    expect(within(free).getByText("Your plan")).toBeTruthy();
    expect(within(within(dialog).getByTestId("plan-custom")).getByText("Unlimited data rooms")).toBeTruthy();
    const contact = within(dialog).getByRole("link", { name: "plans@example.com" });
    expect(contact.getAttribute("href")).toMatch(/^mailto:plans@example\.com\?subject=/);
    expect(within(dialog).getByTestId("plan-contact").textContent).toContain("For Enterprise or any question about plans, contact us");
    // The plan that unlocks it can be bought at once.
    expect(within(dialog).getByRole("link", { name: "Buy Pro" }).getAttribute("href")).toBe("/settings/subscription?plan=pro");
  });

  it("shows a spinner while the plans load", async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    setHttpEffects({ fetch: fetchMock as unknown as typeof fetch } satisfies Partial<HttpEffects>);
    renderAs(freeMember, <UpgradeModalHost contactEmail="plans@example.com" />);
    act(() => openUpgradeModal());
    const dialog = await screen.findByRole("dialog", { name: "Compare plans" });
    expect(within(dialog).getByRole("status").textContent).toContain("Loading plans");
    await act(async () => answer(ok()));
    await waitFor(() => expect(within(dialog).queryByRole("status")).toBeNull());
    expect(within(dialog).getByTestId("plan-free")).toBeTruthy();
  });

  it("says when the plans cannot be loaded and tries again on request", async () => {
    const fetchMock = serve(() => new Response("", { status: 500 }), ok);
    renderAs(freeMember, <UpgradeModalHost contactEmail="plans@example.com" />);
    act(() => openUpgradeModal());
    const dialog = await screen.findByRole("dialog", { name: "Compare plans" });
    await waitFor(() => expect(within(dialog).getByText("We couldn't load the plans. Check your connection and try again.")).toBeTruthy());
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(within(dialog).getByTestId("plan-free")).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(within(dialog).queryByText("Needed for this")).toBeNull();
  });

  it("closes with its Close button", async () => {
    serve(ok);
    renderAs(freeMember, <UpgradeModalHost contactEmail="plans@example.com" />);
    act(() => openUpgradeModal({ requiredTier: "business" }));
    const dialog = await screen.findByRole("dialog");
    const closeButtons = within(dialog).getAllByRole("button", { name: "Close" });
    fireEvent.click(closeButtons[0]!);
    expect(getUpgradeModalState().isOpen).toBe(false);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
