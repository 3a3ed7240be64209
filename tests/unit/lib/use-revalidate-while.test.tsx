import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLoaderData } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useRevalidateWhile } from "~/lib/use-revalidate-while";

/** A page waiting on a payment: its loader answers "waiting" until the `paidAfter`-th load. */
function setup(paidAfter: number, maxTimes = 40) {
  const loads = { count: 0 };
  function Page() {
    const data = useLoaderData() as { status: string };
    useRevalidateWhile(data.status === "waiting", 3000, maxTimes);
    return <p>{data.status}</p>;
  }
  const router = createMemoryRouter([{ path: "/", loader: () => ({ status: ++loads.count >= paidAfter ? "paid" : "waiting" }), element: <Page /> }]);
  render(<RouterProvider router={router} />);
  return loads;
}

async function wait(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe("a page that waits for news", () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it("loads its data again every few seconds while it waits, and stops once the news is there", async () => {
    const loads = setup(3);
    await screen.findByText("waiting");
    await wait(3000);
    expect(loads.count).toBe(2);
    await wait(3000);
    await screen.findByText("paid");
    await wait(30_000);
    expect(loads.count).toBe(3);
  });

  it("gives up after its number of tries (the page then says to come back later)", async () => {
    const loads = setup(1000, 2);
    await screen.findByText("waiting");
    await wait(30_000);
    expect(loads.count).toBe(3);
  });
});
