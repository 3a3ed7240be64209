import { Hono, type Context } from "hono";
import { createPrintOrder, getPrintOrder, printCatalogue, receiveLabCall } from "~/features/billing/print-orders.server";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/print-orders (issue 43, docs/billing.md): the print catalogue; a new order from a gallery
 * folder (201 with the checkout page to pay on); one order of the member's.
 */
export const printOrdersApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/catalogue", (c) => {
    requireApiActor(c);
    return c.json({ catalogue: printCatalogue(apiServiceContext(c)) }, 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await createPrintOrder(apiServiceContext(c), actor.userId, await readJsonBody(c)), 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ order: await getPrintOrder(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });

/** POST /api/print-orders/lab: the print lab's calls (signed; before the CSRF check, like Stripe's). */
export async function printLabCall(c: Context<AppEnv>): Promise<Response> {
  if (Number(c.req.header("content-length") ?? 0) > 100_000) throw new AppError("PAYLOAD_TOO_LARGE", "A lab call is never this large.");
  return c.json(await receiveLabCall(apiServiceContext(c), await c.req.text(), c.req.header("x-lab-signature") ?? null), 200);
}
