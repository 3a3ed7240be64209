import type { ServiceContext } from "~/lib/service-context.server";
import { moveLocalLabOrder } from "./lab-local.server";
import { receiveLabCall } from "./print-orders.server";

/** The development lab's "Ship" and "Fail" (/dev/lab): the lab order moves, then the lab calls the app back at the order's signed address, as a lab would. */
export async function advanceLocalLabOrder(ctx: ServiceContext, labOrderId: string, to: "shipped" | "failed"): Promise<void> {
  const callback = new URL(await moveLocalLabOrder(ctx, labOrderId, to));
  await receiveLabCall(ctx, callback.searchParams.get("order"), callback.searchParams.get("token"));
}
