import type { ServiceContext } from "~/lib/service-context.server";
import { moveLocalLabOrder } from "./print-lab.server";
import { labSignature, receiveLabCall } from "./print-orders.server";

/** The development lab's "Ship" and "Fail" (/dev/lab): the lab order moves, then the lab calls the app back, signed, as a lab would. */
export async function advanceLocalLabOrder(ctx: ServiceContext, labOrderId: string, to: "shipped" | "failed"): Promise<void> {
  await moveLocalLabOrder(ctx, labOrderId, to);
  const body = JSON.stringify({ id: labOrderId, event: to });
  await receiveLabCall(ctx, body, await labSignature(body));
}
