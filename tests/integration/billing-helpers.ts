import { expect } from "vitest";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { testContext } from "~tests/factories/files";
import { send, signedIn } from "./dataroom-helpers";
import type { AuthClient } from "./helpers";

/** A Checkout session for `plan` (POST /api/billing/checkout) → its id. */
export async function checkout(client: AuthClient, plan: Record<string, unknown>): Promise<string> {
  const response = await send(client, "POST", "/api/billing/checkout", plan);
  expect(response.status, await response.clone().text()).toBe(201);
  const { url } = await response.json<{ url: string }>();
  expect(url).toMatch(/\/dev\/payments\/checkout\/cs_test_[a-z0-9]+$/);
  return url.split("/").pop()!;
}

/** A new member who bought `plan` through the local checkout with the paying test card. */
export async function memberWhoBought(plan: Record<string, unknown>, tier = "free") {
  const member = await signedIn({ tier });
  const session = await checkout(member.client, plan);
  const { redirect } = await payLocalCheckout(testContext(), session, LOCAL_CARDS.paid);
  return { ...member, session, redirect };
}

/** Changes the member's subscription (POST /api/billing/subscription) and expects it to work. */
export async function changePlan(client: AuthClient, plan: Record<string, unknown>) {
  const response = await send(client, "POST", "/api/billing/subscription", plan);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<{ subscription: Record<string, unknown>; over: { text: string }[] }>();
}
