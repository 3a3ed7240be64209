import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { localId } from "./local-stripe/local-stripe.server";
import { listLocalObjectsOfKind, readLocalObject, writeLocalObject, type StripeObject } from "./local-stripe/local-stripe.queries.server";

/**
 * The print lab behind print orders (issue 43): one interface, so a lab (Prodigi, Printful, …) is
 * one driver. `submit` hands an order over and answers the lab's id (or throws LabRefusal);
 * `read` answers where the lab stands, which is all the app trusts when the lab calls back.
 */
export type LabOrderState = { status: "received" | "shipped" | "failed"; trackingUrl: string | null; failure: string | null };

export type LabOrderInput = {
  reference: string;
  recipient: { name: string; email: string; address: { line1: string; line2?: string; city: string; postalCode: string; country: string } };
  items: { fileId: string; name: string; size: string; paper: string; quantity: number }[];
};

export type PrintLab = {
  submit(input: LabOrderInput): Promise<{ labOrderId: string }>;
  read(labOrderId: string): Promise<LabOrderState>;
};

/** The lab said no to an order (it is then refunded). */
export class LabRefusal extends Error {}

/** The signing secret of the development lab's callbacks (the local driver only). */
export const LOCAL_LAB_SECRET = "local-lab-strongroom-development-only";

/** Most copies of one picture the development lab takes in one order (like real labs' caps). */
const LOCAL_LAB_MAX_COPIES = 20;

function localLab(ctx: ServiceContext): PrintLab {
  return {
    async submit(input) {
      const tooMany = input.items.find((item) => item.quantity > LOCAL_LAB_MAX_COPIES);
      if (tooMany) throw new LabRefusal(`The lab prints at most ${LOCAL_LAB_MAX_COPIES} copies of one picture per order (${tooMany.quantity} of “${tooMany.name}”).`);
      const order: StripeObject = { id: localId("lab"), object: "lab.order", reference: input.reference, recipient: input.recipient, items: input.items, status: "received", trackingUrl: null, failure: null };
      await writeLocalObject(ctx.db, "lab.order", order, null, ctx.now());
      return { labOrderId: order.id };
    },
    async read(labOrderId) {
      const order = await readLocalObject(ctx.db, labOrderId);
      if (order?.object !== "lab.order") throw new AppError("NOT_FOUND", "The lab does not know this order.");
      return { status: order.status as LabOrderState["status"], trackingUrl: (order.trackingUrl as string | null) ?? null, failure: (order.failure as string | null) ?? null };
    },
  };
}

export function printLabFor(ctx: ServiceContext): PrintLab {
  if (readConfig(ctx.env).PRINT_LAB_DRIVER !== "local") throw new AppError("NOT_FOUND", "Prints are not offered here.");
  return localLab(ctx);
}

/** The development lab's page (/dev/lab): its orders, newest first. */
export async function listLocalLabOrders(ctx: ServiceContext): Promise<{ id: string; reference: string; status: string; items: number; recipient: string }[]> {
  if (readConfig(ctx.env).PRINT_LAB_DRIVER !== "local") throw new AppError("NOT_FOUND", "This page exists only with the development print lab.");
  return (await listLocalObjectsOfKind(ctx.db, "lab.order", 50)).map((order) => ({
    id: order.id,
    reference: String(order.reference),
    status: String(order.status),
    items: (order.items as { quantity: number }[]).reduce((sum, item) => sum + item.quantity, 0),
    recipient: String((order.recipient as { name: string }).name),
  }));
}

/** The development lab ships an order or gives up on it (its page's buttons); the caller then calls the app back. */
export async function moveLocalLabOrder(ctx: ServiceContext, labOrderId: string, to: "shipped" | "failed"): Promise<void> {
  if (readConfig(ctx.env).PRINT_LAB_DRIVER !== "local") throw new AppError("NOT_FOUND", "This page exists only with the development print lab.");
  const order = await readLocalObject(ctx.db, labOrderId);
  if (order?.object !== "lab.order") throw new AppError("NOT_FOUND", "The lab does not know this order.");
  if (order.status !== "received") throw new AppError("CONFLICT", `This lab order is already ${String(order.status)}.`);
  const moved = to === "shipped" ? { ...order, status: "shipped", trackingUrl: `https://tracking.example/${labOrderId}` } : { ...order, status: "failed", failure: "The print lab could not print this order (a damaged file or a paper out of stock)." };
  await writeLocalObject(ctx.db, "lab.order", moved, null, ctx.now());
}
