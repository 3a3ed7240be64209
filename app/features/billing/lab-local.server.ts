import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { listLocalObjectsOfKind, readLocalObject, writeLocalObject, type StripeObject } from "./local-stripe/local-stripe.queries.server";
import { LabRefusal, type LabOrderState, type PrintLab } from "./print-lab.types";

/**
 * The development print lab (PRINT_LAB_DRIVER=local, never in production): it keeps its orders
 * in the local driver's table, and a person ships or fails them on /dev/lab, which calls the app
 * back at the order's callback address as a real lab does.
 */

/** Most copies of one picture the development lab takes in one order (like real labs' caps). */
const LOCAL_LAB_MAX_COPIES = 20;

function labIdOf(reference: string): string {
  return `lab_${reference.replaceAll("-", "")}`;
}

export function localLab(ctx: ServiceContext): PrintLab {
  return {
    check() {},
    async submit(input) {
      const tooMany = input.items.find((item) => item.quantity > LOCAL_LAB_MAX_COPIES);
      if (tooMany) throw new LabRefusal(`The lab prints at most ${LOCAL_LAB_MAX_COPIES} copies of one picture per order (${tooMany.quantity} of “${tooMany.name}”).`);
      // One order per reference, like a lab's idempotency key: a retry finds the first.
      const id = labIdOf(input.reference);
      if (await readLocalObject(ctx.db, id)) return { labOrderId: id };
      const order: StripeObject = { id, object: "lab.order", reference: input.reference, callbackUrl: input.callbackUrl, recipient: input.recipient, items: input.items, status: "received", trackingUrl: null, failure: null };
      await writeLocalObject(ctx.db, "lab.order", order, null, ctx.now());
      return { labOrderId: id };
    },
    async read(labOrderId) {
      const order = await readLocalObject(ctx.db, labOrderId);
      if (order?.object !== "lab.order") throw new AppError("NOT_FOUND", "The lab does not know this order.");
      return { status: order.status as LabOrderState["status"], trackingUrl: (order.trackingUrl as string | null) ?? null, failure: (order.failure as string | null) ?? null };
    },
    async cancel() {
      // The development lab fails an order only by itself being told to: nothing is left to stop.
    },
  };
}

function requireLocalLab(ctx: ServiceContext): void {
  if (readConfig(ctx.env).PRINT_LAB_DRIVER !== "local") throw new AppError("NOT_FOUND", "This page exists only with the development print lab.");
}

export type LocalLabOrder = { id: string; reference: string; status: string; copies: number; recipient: string; pictures: { name: string; url: string }[] };

/** The development lab's page (/dev/lab): its orders, newest first, with the pictures' addresses it was given. */
export async function listLocalLabOrders(ctx: ServiceContext): Promise<LocalLabOrder[]> {
  requireLocalLab(ctx);
  return (await listLocalObjectsOfKind(ctx.db, "lab.order", 50)).map((order) => {
    const items = order.items as { name: string; quantity: number; assetUrl?: string }[];
    return {
      id: order.id,
      reference: String(order.reference),
      status: String(order.status),
      copies: items.reduce((sum, item) => sum + item.quantity, 0),
      recipient: String((order.recipient as { name: string }).name),
      pictures: items.flatMap((item) => (item.assetUrl ? [{ name: item.name, url: item.assetUrl }] : [])),
    };
  });
}

/** The development lab ships an order or gives up on it (its page's buttons) → the address it calls back. */
export async function moveLocalLabOrder(ctx: ServiceContext, labOrderId: string, to: "shipped" | "failed"): Promise<string> {
  requireLocalLab(ctx);
  const order = await readLocalObject(ctx.db, labOrderId);
  if (order?.object !== "lab.order") throw new AppError("NOT_FOUND", "The lab does not know this order.");
  if (order.status !== "received") throw new AppError("CONFLICT", `This lab order is already ${String(order.status)}.`);
  const moved = to === "shipped" ? { ...order, status: "shipped", trackingUrl: `https://tracking.example/${labOrderId}` } : { ...order, status: "failed", failure: "The print lab could not print this order (a damaged file or a paper out of stock)." };
  await writeLocalObject(ctx.db, "lab.order", moved, null, ctx.now());
  return String(order.callbackUrl);
}
