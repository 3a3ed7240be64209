import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, Link, RouterProvider, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { useLiveRevalidate } from "~/lib/use-live-revalidate";

/** A page whose data counts its loads, a link to a page whose load waits until the test lets it go, and the live event's button. */
function setup() {
  const loads = { home: 0, next: 0 };
  let release: () => void = () => undefined;
  let live: () => void = () => undefined;
  function Page({ name }: { name: string }) {
    const data = useLoaderData() as { count: number };
    live = useLiveRevalidate();
    return (
      <p>
        {name} loaded {data.count} times <Link to="/next">next</Link>
      </p>
    );
  }
  const router = createMemoryRouter([
    { path: "/", loader: () => ({ count: ++loads.home }), element: <Page name="home" /> },
    {
      path: "/next",
      loader: async () => {
        loads.next++;
        await new Promise<void>((resolve) => (release = resolve));
        return { count: loads.next };
      },
      element: <Page name="next" />,
    },
  ]);
  render(<RouterProvider router={router} />);
  return { router, loads, release: () => release(), live: () => live() };
}

describe("a live event's reload", () => {
  it("reloads the page's data at once when nothing else is loading", async () => {
    const { loads, live } = setup();
    await screen.findByText(/home loaded 1 times/);
    await act(async () => live());
    await screen.findByText(/home loaded 2 times/);
    expect(loads.home).toBe(2);
  });

  it("does not restart a navigation that is loading, and reloads once after it has settled", async () => {
    const { router, loads, release, live } = setup();
    await screen.findByText(/home loaded 1 times/);
    await act(async () => void router.navigate("/next"));
    expect(router.state.navigation.state).toBe("loading");
    await act(async () => live());
    // The navigation's load was not thrown away and started again.
    expect(loads.next).toBe(1);
    await act(async () => release());
    await screen.findByText(/next loaded/);
    // Once settled, one more load of the page it landed on (what changed after its load began).
    await act(async () => release());
    await screen.findByText(/next loaded 2 times/);
    expect(loads.next).toBe(2);
  });
});
