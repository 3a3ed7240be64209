import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ConfirmIntentButton } from "~/components/confirm-intent-button";

/** A page with one "Remove" that asks first; its action records what was posted. */
function setup() {
  const posted: Record<string, string>[] = [];
  const router = createMemoryRouter([
    {
      path: "/",
      action: async ({ request }) => {
        posted.push(Object.fromEntries((await request.formData()).entries()) as Record<string, string>);
        return { ok: true };
      },
      element: <ConfirmIntentButton intent="remove" fields={{ userId: "u-1" }} label="Remove" ariaLabel="Remove Ada" title="Remove Ada from Falcon?" description="They lose the team at once." confirmLabel="Remove from the team" />,
    },
  ]);
  render(<RouterProvider router={router} />);
  return posted;
}

describe("a removal that asks first", () => {
  it("posts nothing when the person cancels, and the intent with its values once they confirm", async () => {
    const posted = setup();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Remove Ada" })));
    const dialog = await screen.findByRole("dialog", { name: "Remove Ada from Falcon?" });
    expect(dialog.textContent).toContain("They lose the team at once.");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancel" })));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([]);

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Remove Ada" })));
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Remove from the team" })));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ intent: "remove", userId: "u-1" });
  });
});
