import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { createPrintOrder, getPrintOrder, lookAgainAtOpenOrders, receiveLabCall } from "~/features/billing/print-orders.server";
import { stripeFor } from "~/features/billing/stripe-client.server";
import { readConfig } from "~/lib/config.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countWhere, signedIn, type Person } from "./dataroom-helpers";
import { galleryWith } from "./gallery-helpers";
import { mailsTo, origin, testEnv } from "./helpers";

/**
 * Prodigi as the print lab (PRINT_LAB_DRIVER=prodigi, issue 43): a fake of Prodigi's Print API v4
 * answers the driver's fetch (orders by idempotency key, stages, issues, shipments, cancel), so the
 * whole life of an order runs here: the products and addresses Prodigi is given, a lab that cannot
 * be reached, an answer lost on the way, a refusal, a picture Prodigi could not download.
 */

const PRODIGI = "https://prodigi.test/v4.0";
const SIZES = ["10x15", "13x18", "20x30", "30x45"];
const PAPERS = ["lustre", "matte", "fine-art"];
const PRODUCTS = Object.fromEntries(SIZES.flatMap((size) => PAPERS.map((paper) => [`${size}/${paper}`, { sku: `GLOBAL-${paper === "fine-art" ? "FAP" : "PHO"}-${size.toUpperCase()}`, ...(paper === "fine-art" ? {} : { attributes: { finish: paper } }) }])));
const ADDRESS = { line1: "1 Harbour Road", line2: "Floor 3", city: "Hamburg", postalCode: "20457", country: "de" };

type FakeOrder = { id: string; body: Record<string, unknown>; stage: string; issues: { objectId: string; errorCode: string; description: string }[]; shipments: { status: string; tracking: { url: string; number: string } }[] };
type Recorded = { method: string; path: string; key: string | null; body: Record<string, unknown> | null };

/** Prodigi's Print API, as far as the driver uses it. */
class FakeProdigi {
  orders = new Map<string, FakeOrder>();
  requests: Recorded[] = [];
  /** The next order POST: refused outright (503), or made but its answer lost (502 after creating it). */
  next: "unavailable" | "lose-answer" | null = null;

  async handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname.replace("/v4.0", "");
    const body = request.method === "POST" ? ((await request.json().catch(() => null)) as Record<string, unknown> | null) : null;
    this.requests.push({ method: request.method, path, key: request.headers.get("x-api-key"), body });
    if (request.headers.get("x-api-key") !== "test-key") return Response.json({ outcome: "Unauthorized" }, { status: 401 });
    if (request.method === "POST" && path === "/Orders") return this.create(body!);
    const cancel = path.match(/^\/Orders\/([^/]+)\/actions\/cancel$/);
    if (request.method === "POST" && cancel) {
      const order = this.orders.get(cancel[1]!);
      if (!order) return Response.json({ outcome: "EntityNotFound" }, { status: 404 });
      order.stage = "Cancelled";
      return Response.json({ outcome: "Cancelled", order: this.view(order) });
    }
    const read = path.match(/^\/Orders\/([^/]+)$/);
    if (request.method === "GET" && read) {
      const order = this.orders.get(read[1]!);
      return order ? Response.json({ outcome: "Ok", order: this.view(order) }) : Response.json({ outcome: "EntityNotFound" }, { status: 404 });
    }
    return Response.json({ outcome: "EndpointDoesNotExist" }, { status: 404 });
  }

  private create(body: Record<string, unknown>): Response {
    if (this.next === "unavailable") {
      this.next = null;
      return Response.json({ outcome: "InternalServerError" }, { status: 503 });
    }
    const existing = [...this.orders.values()].find((order) => order.body.idempotencyKey === body.idempotencyKey);
    if (existing) return Response.json({ outcome: "AlreadyExists", order: this.view(existing) });
    const country = (body.recipient as { address: { countryCode: string } }).address.countryCode;
    if (!["DE", "FR", "GB", "US"].includes(country)) {
      return Response.json({ outcome: "ValidationFailed", failures: { "recipient.address.countryCode": [{ code: "NotSupported", providedValue: country }] } }, { status: 400 });
    }
    const order: FakeOrder = { id: `ord_${crypto.randomUUID().slice(0, 12)}`, body, stage: "InProgress", issues: [], shipments: [] };
    this.orders.set(order.id, order);
    if (this.next === "lose-answer") {
      this.next = null;
      return new Response("upstream connect error", { status: 502 });
    }
    return Response.json({ outcome: "Created", order: this.view(order) });
  }

  private view(order: FakeOrder) {
    return { id: order.id, merchantReference: order.body.merchantReference, status: { stage: order.stage, issues: order.issues, details: {} }, shipments: order.shipments, items: order.body.items };
  }

  orderFor(reference: string): FakeOrder {
    return [...this.orders.values()].find((order) => order.body.merchantReference === reference)!;
  }

  postsFor(reference: string): number {
    return this.requests.filter((request) => request.path === "/Orders" && request.body?.merchantReference === reference).length;
  }
}

let prodigi: FakeProdigi;
const realFetch = globalThis.fetch;

beforeEach(() => {
  prodigi = new FakeProdigi();
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const request = new Request(input, init);
    return request.url.startsWith(PRODIGI) ? prodigi.handle(request) : realFetch(input, init);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function prodigiContext(products: Record<string, unknown> = PRODUCTS) {
  return createServiceContext({ ...testEnv, PRINT_LAB_DRIVER: "prodigi", PRODIGI_API_KEY: "test-key", PRODIGI_API_URL: PRODIGI, PRODIGI_PRODUCTS: JSON.stringify(products) } as unknown as Env, { requestId: "prodigi" });
}

async function galleryOf(member: Person) {
  const { folderId, files } = await galleryWith(member, "Harbour", [
    { name: "dock.png", contentType: "image/png", content: "png-bytes" },
    { name: "crane.jpg", contentType: "image/jpeg", content: "jpg" },
  ]);
  return { folderId, dock: files[0]!, crane: files[1]! };
}

/** A member's order, paid at the local checkout (Stripe's event then hands it to the lab). */
async function paidOrder(ctx: ReturnType<typeof prodigiContext>, member: Person, folderId: string, items: unknown[], address: Record<string, string> = ADDRESS) {
  const { id, url } = await createPrintOrder(ctx, member.id, { folderId, items, name: "Ada Lovelace", address });
  await payLocalCheckout(ctx, url.split("/").pop()!, LOCAL_CARDS.paid);
  return id;
}

/** Prodigi calling back at the address the order gave it (what it POSTs does not matter: the app reads the order). */
async function callBack(ctx: ReturnType<typeof prodigiContext>, reference: string) {
  const callback = new URL(String(prodigi.orderFor(reference).body.callbackUrl));
  expect(callback.pathname).toBe("/api/print-orders/lab");
  return receiveLabCall(ctx, callback.searchParams.get("order"), callback.searchParams.get("token"));
}

describe("Prodigi as the print lab", () => {
  it("gives Prodigi the paid order with its products, prices, recipient and signed picture addresses, once, and ships it with tracking when Prodigi completes it", async () => {
    const ctx = prodigiContext();
    const member = await signedIn({ email: `prodigi-${crypto.randomUUID()}@example.com` });
    const { folderId, dock, crane } = await galleryOf(member);
    const id = await paidOrder(ctx, member, folderId, [
      { fileId: dock.id, size: "13x18", paper: "fine-art", quantity: 2 },
      { fileId: crane.id, size: "10x15", paper: "lustre", quantity: 1 },
    ]);

    expect(prodigi.postsFor(id)).toBe(1);
    const sent = prodigi.orderFor(id);
    expect(prodigi.requests.every((request) => request.key === "test-key")).toBe(true);
    expect(sent.body).toMatchObject({
      merchantReference: id,
      idempotencyKey: id,
      shippingMethod: "Standard",
      recipient: { name: "Ada Lovelace", email: member.email, address: { line1: "1 Harbour Road", line2: "Floor 3", postalOrZipCode: "20457", countryCode: "DE", townOrCity: "Hamburg" } },
    });
    const items = sent.body.items as { sku: string; attributes?: unknown; copies: number; sizing: string; recipientCost: unknown; assets: { printArea: string; url: string }[] }[];
    expect(items.map(({ assets: _assets, ...item }) => item)).toEqual([
      { merchantReference: dock.id, sku: "GLOBAL-FAP-13X18", copies: 2, sizing: "fillPrintArea", recipientCost: { amount: "2.25", currency: "EUR" } },
      { merchantReference: crane.id, sku: "GLOBAL-PHO-10X15", attributes: { finish: "lustre" }, copies: 1, sizing: "fillPrintArea", recipientCost: { amount: "0.90", currency: "EUR" } },
    ]);
    // Prodigi downloads each original from its signed address, without a cookie.
    const picture = new URL(items[0]!.assets[0]!.url);
    expect(items[0]!.assets[0]!.printArea).toBe("default");
    const download = await exports.default.fetch(`${origin}${picture.pathname}${picture.search}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("png-bytes");

    expect(await getPrintOrder(ctx, member.id, id)).toMatchObject({ status: "sent", statusLabel: "At the print lab" });
    // Looking again while Prodigi works on it sends nothing twice and moves nothing.
    await callBack(ctx, id);
    await lookAgainAtOpenOrders(ctx);
    expect(prodigi.postsFor(id)).toBe(1);
    expect((await getPrintOrder(ctx, member.id, id)).status).toBe("sent");

    sent.stage = "Complete";
    sent.shipments = [{ status: "Shipped", tracking: { url: "https://track.example/DE123", number: "DE123" } }];
    await callBack(ctx, id);
    expect(await getPrintOrder(ctx, member.id, id)).toMatchObject({ status: "shipped", trackingUrl: "https://track.example/DE123" });
    expect((await mailsTo(member.email)).at(-1)!.textBody).toContain("https://track.example/DE123");
    // Shipped, the originals no longer leave by those addresses.
    expect((await exports.default.fetch(`${origin}${picture.pathname}${picture.search}`)).status).toBe(404);
  });

  it("keeps a paid order when Prodigi cannot be reached or its answer is lost, and sends it once on the next look; refunds what Prodigi refuses, in words the buyer understands", async () => {
    const ctx = prodigiContext();
    const member = await signedIn({ email: `prodigi-${crypto.randomUUID()}@example.com` });
    const { folderId, dock } = await galleryOf(member);
    const item = { fileId: dock.id, size: "20x30", paper: "matte", quantity: 1 };

    prodigi.next = "unavailable";
    const waiting = await paidOrder(ctx, member, folderId, [item]);
    expect(await getPrintOrder(ctx, member.id, waiting)).toMatchObject({ status: "sent" });
    // The buyer's return to the order's page was the next look: the order is at Prodigi now.
    expect(prodigi.postsFor(waiting)).toBe(2);

    prodigi.next = "lose-answer";
    const lost = await paidOrder(ctx, member, folderId, [item]);
    const row = async (orderId: string) => testEnv.DB.prepare("select status, lab_order_id as lab from print_orders where id = ?").bind(orderId).first<{ status: string; lab: string | null }>();
    expect(await row(lost)).toEqual({ status: "paid", lab: null });
    const { moved } = await lookAgainAtOpenOrders(ctx);
    expect(moved).toBeGreaterThanOrEqual(1);
    // Prodigi knew it by its idempotency key: one order there, and it is the one the app keeps.
    expect([...prodigi.orders.values()].filter((order) => order.body.merchantReference === lost)).toHaveLength(1);
    expect(await row(lost)).toEqual({ status: "sent", lab: prodigi.orderFor(lost).id });
    expect((await mailsTo(member.email)).filter((mail) => mail.subject.startsWith("Your prints could not be made"))).toHaveLength(0);

    const refused = await paidOrder(ctx, member, folderId, [item], { ...ADDRESS, country: "AQ" });
    const back = await getPrintOrder(ctx, member.id, refused);
    expect(back).toMatchObject({ status: "refunded", failure: "The print lab cannot make or ship this order (it refused the country)." });
    const intent = (await testEnv.DB.prepare("select payment_intent_id as id from print_orders where id = ?").bind(refused).first<{ id: string }>())!.id;
    expect(((await stripeFor(ctx).paymentIntents.retrieve(intent)) as unknown as { refunded: boolean }).refunded).toBe(true);
  });

  it("cancels at Prodigi and refunds an order whose picture Prodigi could not download; refuses before payment what Prodigi has no product for; needs its key and products", async () => {
    const ctx = prodigiContext();
    const member = await signedIn({ email: `prodigi-${crypto.randomUUID()}@example.com` });
    const { folderId, dock } = await galleryOf(member);
    const id = await paidOrder(ctx, member, folderId, [{ fileId: dock.id, size: "30x45", paper: "lustre", quantity: 1 }]);
    const atLab = prodigi.orderFor(id);
    atLab.issues = [{ objectId: "ori_1", errorCode: "order.items.assets.FailedToDownloaded", description: "Download attempt 10 of 10 failed" }];
    await callBack(ctx, id);
    expect(await getPrintOrder(ctx, member.id, id)).toMatchObject({ status: "refunded", failure: "The print lab could not fetch a picture of this order (it may have been deleted)." });
    expect(prodigi.requests.some((request) => request.method === "POST" && request.path === `/Orders/${atLab.id}/actions/cancel`)).toBe(true);
    expect(atLab.stage).toBe("Cancelled");
    // Prodigi telling it again (now Cancelled) changes nothing and refunds nothing twice.
    await callBack(ctx, id);
    expect((await mailsTo(member.email)).filter((mail) => mail.subject.startsWith("Your print order was refunded"))).toHaveLength(1);

    const { "30x45/fine-art": _dropped, ...incomplete } = PRODUCTS;
    const before = await countWhere("select count(*) as n from print_orders");
    await expect(createPrintOrder(prodigiContext(incomplete), member.id, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }], name: "Ada", address: ADDRESS })).rejects.toMatchObject({
      status: 503,
      message: "Prints of 30x45/fine-art cannot be ordered just now: the print lab has no product for it (PRODIGI_PRODUCTS, docs/configuration.md). Nothing was charged.",
    });
    expect(await countWhere("select count(*) as n from print_orders")).toBe(before);

    expect(() => readConfig({ ...testEnv, PRINT_LAB_DRIVER: "prodigi" } as unknown as Env)).toThrow("PRINT_LAB_DRIVER is prodigi but PRODIGI_API_KEY or PRODIGI_PRODUCTS is not set.");
  });
});
