import { Hono, type Context } from "hono";
import { createPrintOrder, deliverOrderedPicture, getPrintOrder, listPrintOrders, printCatalogue, receiveLabCall } from "~/features/billing/print-orders.server";
import { AppError } from "~/lib/errors";
import { contentRequest } from "../content-request";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/print-orders (issue 43, docs/billing.md): the print catalogue; the member's orders and those
 * from their galleries; a new order from a gallery folder (201 with the checkout page to pay on);
 * one order of the member's.
 */
export const printOrdersApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/catalogue", (c) => {
    requireApiActor(c);
    return c.json({ catalogue: printCatalogue(apiServiceContext(c)) }, 200);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listPrintOrders(apiServiceContext(c), actor.userId), 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await createPrintOrder(apiServiceContext(c), actor.userId, await readJsonBody(c)), 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ order: await getPrintOrder(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });

/** POST /api/print-orders/lab?order=…&token=…: the print lab's calls (the order's signed address; before the CSRF check, like Stripe's). */
export async function printLabCall(c: Context<AppEnv>): Promise<Response> {
  if (Number(c.req.header("content-length") ?? 0) > 1_000_000) throw new AppError("PAYLOAD_TOO_LARGE", "A lab call is never this large.");
  return c.json(await receiveLabCall(apiServiceContext(c), c.req.query("order") ?? null, c.req.query("token") ?? null), 200);
}

/** GET/HEAD /api/print-orders/{id}/pictures/{fileId}?expires=…&token=…: an ordered picture's original for the lab (its signed address, no cookie). */
export async function printLabPicture(c: Context<AppEnv>): Promise<Response> {
  const delivery = await deliverOrderedPicture(apiServiceContext(c), c.req.param("id")!, c.req.param("fileId")!, c.req.query("expires") ?? null, c.req.query("token") ?? null, contentRequest(c));
  delivery.headers.set("Referrer-Policy", "no-referrer");
  return new Response(delivery.body, { status: delivery.status, headers: delivery.headers });
}
