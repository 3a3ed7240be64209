import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { advanceLocalLabOrder } from "~/features/billing/local-lab.server";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { createPrintOrder, createVisitorPrintOrder, forgetOldShippingAddresses, getPrintOrder, lookAgainAtOpenOrders } from "~/features/billing/print-orders.server";
import { createServiceContext } from "~/lib/service-context.server";
import { passPublicGalleryGate, viewPublicGallery } from "~/features/galleries/public-gallery.server";
import { stripeFor } from "~/features/billing/stripe-client.server";
import { testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn } from "./dataroom-helpers";
import { galleryWith } from "./gallery-helpers";
import { mailsTo, newAuthClient, origin, testEnv } from "./helpers";

/**
 * Print orders from galleries (issue 43): a member picks pictures of a gallery they can see, with
 * sizes, papers and copies priced from the catalogue, pays through Checkout, and the order goes to
 * the print lab; every step happens once (with its e-mail), Stripe's and the lab's calls only say
 * "look again", and a lab's failure is refunded in full.
 */

type Order = { id: string; status: string; statusLabel: string; totalCents: number; trackingUrl: string | null; failure: string | null; events: { status: string }[] };
const ADDRESS = { line1: "1 Harbour Road", city: "Hamburg", postalCode: "20457", country: "de" };

async function galleryOf(member: Awaited<ReturnType<typeof signedIn>>) {
  const { spaceId, folderId, files } = await galleryWith(member, "Wedding", [
    { name: "dock.png", contentType: "image/png", content: "png" },
    { name: "vows.jpg", contentType: "image/jpeg", content: "jpg" },
    { name: "notes.txt", content: "not a picture" },
  ]);
  const [dock, vows, notes] = files as [(typeof files)[number], (typeof files)[number], (typeof files)[number]];
  return { spaceId, folderId, dock, vows, notes };
}

async function order(member: Awaited<ReturnType<typeof signedIn>>, body: Record<string, unknown>) {
  const response = await send(member.client, "POST", "/api/print-orders", { name: "Ada Lovelace", address: ADDRESS, ...body });
  expect(response.status, await response.clone().text()).toBe(201);
  const { id, url } = await response.json<{ id: string; url: string }>();
  expect(url).toMatch(/\/dev\/payments\/checkout\/cs_test_/);
  return { id, session: url.split("/").pop()! };
}

async function orderOf(member: Awaited<ReturnType<typeof signedIn>>, id: string): Promise<Order> {
  const response = await get(`/api/print-orders/${id}`, member.client);
  expect(response.status).toBe(200);
  return (await response.json<{ order: Order }>()).order;
}

async function labIdOf(orderId: string): Promise<string> {
  return (await testEnv.DB.prepare("select lab_order_id as id from print_orders where id = ?").bind(orderId).first<{ id: string }>())!.id;
}

/** What the development lab was given for an order: its callback address and each picture's. */
async function labOrder(labId: string): Promise<{ callbackUrl: string; items: { name: string; assetUrl: string }[] }> {
  const row = await testEnv.DB.prepare("select data from local_stripe_objects where id = ?").bind(labId).first<{ data: string }>();
  return JSON.parse(row!.data) as { callbackUrl: string; items: { name: string; assetUrl: string }[] };
}

/** The lab's call at an address (what a lab POSTs: a body the app does not need). */
function labCall(address: string) {
  const url = new URL(address);
  return exports.default.fetch(`${origin}${url.pathname}${url.search}`, { method: "POST", body: JSON.stringify({ type: "com.prodigi.order.status.stage.changed#Complete" }), headers: { "content-type": "application/json" } });
}

function fetchPicture(address: string, method: "GET" | "HEAD" = "GET") {
  const url = new URL(address);
  return exports.default.fetch(`${origin}${url.pathname}${url.search}`, { method });
}

/** A visitor's visit of a public gallery, past its gates (the cookie the gallery's page keeps). */
async function visitGallery(key: string, gates: unknown[] = []) {
  let cookie: string | null = null;
  for (const gate of gates) cookie = (await passPublicGalleryGate(testContext(), key, cookie, gate)).cookie ?? cookie;
  const result = await viewPublicGallery(testContext(), key, cookie);
  return { cookie: result.cookie ?? cookie, page: result.page };
}

async function publishGallery(member: Awaited<ReturnType<typeof signedIn>>, folderId: string, options: Record<string, unknown>) {
  const response = await send(member.client, "POST", "/api/share-links", { target: { type: "folder", id: folderId }, presentation: "gallery", ...options });
  expect(response.status, await response.clone().text()).toBe(201);
  const link = (await response.json<{ link: { id: string; url: string; allowPrints: boolean } }>()).link;
  return { ...link, key: link.url.split("/public-gallery/")[1]! };
}

describe("print orders", () => {
  it("a member orders prints from a gallery: priced from the catalogue, paid at checkout, sent to the lab and shipped, each step once with its e-mail", async () => {
    const member = await signedIn({ email: `prints-${crypto.randomUUID()}@example.com` });
    const { folderId, dock, vows } = await galleryOf(member);
    const catalogue = await (await get("/api/print-orders/catalogue", member.client)).json<{ catalogue: { sizes: unknown[]; shippingCents: number } }>();
    expect(catalogue.catalogue.shippingCents).toBe(490);

    const { id, session } = await order(member, {
      folderId,
      items: [
        { fileId: dock.id, size: "13x18", paper: "fine-art", quantity: 2 },
        { fileId: vows.id, size: "10x15", paper: "lustre", quantity: 1 },
      ],
    });
    // 13 × 18 on fine art is €1.50 + 50 % = €2.25, twice; 10 × 15 on lustre €0.90; shipping €4.90.
    expect(await orderOf(member, id)).toMatchObject({ status: "created", totalCents: 450 + 90 + 490 });
    const { redirect } = await payLocalCheckout(testContext(), session, LOCAL_CARDS.paid);
    expect(redirect).toBe(`${origin}/print-orders/${id}`);
    const sent = await orderOf(member, id);
    expect(sent.status).toBe("sent");
    // The order speaks the catalogue's words for its sizes and papers.
    expect((sent as unknown as { items: { sizeLabel: string; paperLabel: string }[] }).items.map((item) => `${item.sizeLabel} · ${item.paperLabel}`)).toEqual(["13 × 18 cm · Fine art", "10 × 15 cm · Lustre"]);
    expect(sent.events.map((event) => event.status)).toEqual(["created", "paid", "sent"]);
    expect((await mailsTo(member.email)).map((mail) => mail.subject).filter((subject) => subject.includes("print") || subject.includes("prints"))).toEqual([
      `We have your print order (order ${id.slice(0, 8).toUpperCase()})`,
      `Your prints are being made (order ${id.slice(0, 8).toUpperCase()})`,
    ]);

    const labId = await labIdOf(id);
    // The lab was given each picture's original at a signed address, and an address to call back.
    const given = await labOrder(labId);
    expect(given.items.map((item) => item.name)).toEqual(["dock.png", "vows.jpg"]);
    const picture = await fetchPicture(given.items[0]!.assetUrl);
    expect(picture.status).toBe(200);
    expect(await picture.text()).toBe("png");
    expect((await fetchPicture(given.items[1]!.assetUrl, "HEAD")).headers.get("content-length")).toBe("3");
    await advanceLocalLabOrder(testContext(), labId, "shipped");
    const shipped = await orderOf(member, id);
    expect(shipped).toMatchObject({ status: "shipped", trackingUrl: `https://tracking.example/${labId}` });
    // The lab calling again, or Stripe's event again, changes nothing and sends nothing.
    expect((await labCall(given.callbackUrl)).status).toBe(200);
    const mails = (await mailsTo(member.email)).length;
    expect((await orderOf(member, id)).events.map((event) => event.status)).toEqual(["created", "paid", "sent", "shipped"]);
    expect((await mailsTo(member.email)).length).toBe(mails);
    expect((await mailsTo(member.email)).at(-1)!.subject).toBe(`Your prints have shipped (order ${id.slice(0, 8).toUpperCase()})`);
    // Shipped, the originals no longer leave by those addresses.
    expect((await fetchPicture(given.items[0]!.assetUrl)).status).toBe(404);
  });

  it("refunds in full when the lab refuses the order or fails it later, and says so by e-mail", async () => {
    const member = await signedIn({ email: `prints-${crypto.randomUUID()}@example.com` });
    const { folderId, dock } = await galleryOf(member);
    // The development lab prints at most 20 copies of one picture: refused at submission.
    const refused = await order(member, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 25 }] });
    await payLocalCheckout(testContext(), refused.session, LOCAL_CARDS.paid);
    const back = await orderOf(member, refused.id);
    expect(back).toMatchObject({ status: "refunded", failure: "The lab prints at most 20 copies of one picture per order (25 of “dock.png”)." });
    expect(back.events.map((event) => event.status)).toEqual(["created", "paid", "failed", "refunded"]);
    const intent = (await testEnv.DB.prepare("select payment_intent_id as id from print_orders where id = ?").bind(refused.id).first<{ id: string }>())!.id;
    expect(((await stripeFor(testContext()).paymentIntents.retrieve(intent)) as unknown as { refunded: boolean }).refunded).toBe(true);

    const later = await order(member, { folderId, items: [{ fileId: dock.id, size: "30x45", paper: "matte", quantity: 1 }] });
    await payLocalCheckout(testContext(), later.session, LOCAL_CARDS.paid);
    await advanceLocalLabOrder(testContext(), await labIdOf(later.id), "failed");
    expect(await orderOf(member, later.id)).toMatchObject({ status: "refunded", failure: "The print lab could not print this order (a damaged file or a paper out of stock)." });
    const subjects = (await mailsTo(member.email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject.startsWith("Your prints could not be made"))).toHaveLength(2);
    expect(subjects.filter((subject) => subject.startsWith("Your print order was refunded"))).toHaveLength(2);
  });

  it("answers members who can see the gallery only; refuses what cannot be printed with a message; the lab's calls need its signature; nothing is written on refusal", async () => {
    const owner = await signedIn();
    const outsider = await signedIn();
    const { folderId, dock, notes } = await galleryOf(owner);
    const before = await countWhere("select count(*) as n from print_orders");
    const anonymous = await newAuthClient();
    expect((await send(anonymous, "POST", "/api/print-orders", { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }] })).status).toBe(401);
    expect((await get("/api/print-orders/catalogue", anonymous)).status).toBe(401);
    const foreign = await send(outsider.client, "POST", "/api/print-orders", { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }], name: "Eve", address: ADDRESS });
    expect(foreign.status).toBe(404);
    for (const [items, message] of [
      [[{ fileId: notes.id, size: "10x15", paper: "matte", quantity: 1 }], "items: Only pictures of this gallery can be printed."],
      [[{ fileId: dock.id, size: "1x1", paper: "matte", quantity: 1 }], "items: Choose a size (10 × 15 cm, 13 × 18 cm, 20 × 30 cm, 30 × 45 cm) and a paper (Lustre, Matte, Fine art)."],
      [[{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 0 }], "items.0.quantity: At least one copy."],
      [[], "items: Choose at least one picture to print."],
    ] as const) {
      const response = await send(owner.client, "POST", "/api/print-orders", { folderId, items, name: "Ada", address: ADDRESS });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    const noCountry = await send(owner.client, "POST", "/api/print-orders", { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }], name: "Ada", address: { ...ADDRESS, country: "Germany" } });
    expect((await noCountry.json<{ message: string }>()).message).toBe("address.country: Enter the country as its two-letter code (DE, FR, US…).");
    expect(await countWhere("select count(*) as n from print_orders")).toBe(before);

    const { id } = await order(owner, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }] });
    expect((await get(`/api/print-orders/${id}`, outsider.client)).status).toBe(404);
    // The lab's calls and downloads need the order's signed addresses: forged, swapped or altered ones get nothing.
    for (const address of [`${origin}/api/print-orders/lab?order=${id}&token=${"A".repeat(43)}`, `${origin}/api/print-orders/lab?order=${id}`, `${origin}/api/print-orders/lab`]) {
      const forged = await labCall(address);
      expect(forged.status).toBe(400);
      expect((await forged.json<{ message: string }>()).message).toBe("This callback address is not valid.");
    }
    const paid = await order(owner, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }] });
    await payLocalCheckout(testContext(), paid.session, LOCAL_CARDS.paid);
    const address = new URL((await labOrder(await labIdOf(paid.id))).items[0]!.assetUrl);
    expect((await fetchPicture(address.href)).status).toBe(200);
    const later = new URL(address);
    later.searchParams.set("expires", String(Number(address.searchParams.get("expires")) + 86_400));
    const otherFile = new URL(address.href.replace(dock.id, notes.id));
    const otherOrder = new URL(address.href.replace(paid.id, id));
    for (const altered of [later, otherFile, otherOrder]) expect((await fetchPicture(altered.href)).status).toBe(404);
  });

  it("a public gallery's visitor orders prints where the owner allows them, past the link's gates, and follows the order with its token only", async () => {
    const owner = await signedIn({ tier: "pro" });
    const { folderId, dock, notes } = await galleryOf(owner);
    const closed = await publishGallery(owner, folderId, {});
    expect(closed.allowPrints).toBe(false);
    const plain = await visitGallery(closed.key);
    expect(plain.page).toMatchObject({ state: "open", prints: false });
    const item = { fileId: dock.id, size: "20x30", paper: "lustre", quantity: 1 };
    const visitor = { items: [item], name: "Grace Hopper", email: `visitor-${crypto.randomUUID()}@example.com`, address: ADDRESS };
    await expect(createVisitorPrintOrder(testContext(), closed.key, plain.cookie, visitor)).rejects.toMatchObject({ status: 403, message: "Prints are not offered for this gallery." });

    const open = await publishGallery(owner, folderId, { allowPrints: true, password: "harbour-2026" });
    // Without passing the password there is no order.
    await expect(createVisitorPrintOrder(testContext(), open.key, null, visitor)).rejects.toMatchObject({ status: 403 });
    const passed = await visitGallery(open.key, [{ gate: "password", password: "harbour-2026" }]);
    expect(passed.page).toMatchObject({ state: "open", prints: true });
    await expect(createVisitorPrintOrder(testContext(), open.key, passed.cookie, { ...visitor, items: [{ ...item, fileId: notes.id }] })).rejects.toMatchObject({ status: 400, message: "items: Only pictures of this gallery can be printed." });
    await expect(createVisitorPrintOrder(testContext(), open.key, passed.cookie, { ...visitor, email: "not an address" })).rejects.toMatchObject({ status: 400 });

    const { id, url } = await createVisitorPrintOrder(testContext(), open.key, passed.cookie, visitor);
    const { redirect } = await payLocalCheckout(testContext(), url.split("/").pop()!, LOCAL_CARDS.paid);
    expect(new URL(redirect).pathname).toBe(`/prints/${id}`);
    expect(new URL(redirect).searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = new URL(redirect).searchParams.get("token")!;
    expect(await getPrintOrder(testContext(), null, id, token)).toMatchObject({ status: "sent", email: visitor.email, totalCents: 450 + 490 });
    // The token is the order's only key: a wrong one, none, or a member who is not the buyer find nothing.
    await expect(getPrintOrder(testContext(), null, id, token.replace(/^./, token[0] === "A" ? "B" : "A"))).rejects.toMatchObject({ status: 404 });
    await expect(getPrintOrder(testContext(), owner.id, id, null)).rejects.toMatchObject({ status: 404 });
    // The visitor's e-mails lead to the order with its token.
    const mails = await mailsTo(visitor.email);
    expect(mails.map((mail) => mail.subject)).toEqual([`We have your print order (order ${id.slice(0, 8).toUpperCase()})`, `Your prints are being made (order ${id.slice(0, 8).toUpperCase()})`]);
    expect(mails[0]!.textBody).toContain(`/prints/${id}?token=${token}`);
    // Whoever published the gallery hears of the paid order (once), and where to see it.
    const notices = await testEnv.DB.prepare("select kind, title, link from notifications where user_id = ? and kind = 'print.ordered'").bind(owner.id).all<{ kind: string; title: string; link: string }>();
    expect(notices.results).toEqual([{ kind: "print.ordered", title: "Grace Hopper ordered 1 print from “Wedding”", link: "/print-orders" }]);
  });

  it("lists the member's own orders and what visitors ordered from the galleries they published, and nobody else's", async () => {
    const owner = await signedIn({ tier: "pro" });
    const outsider = await signedIn();
    const { folderId, dock } = await galleryOf(owner);
    const own = await order(owner, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "lustre", quantity: 3 }] });
    const link = await publishGallery(owner, folderId, { allowPrints: true });
    const visit = await visitGallery(link.key);
    const sold = await createVisitorPrintOrder(testContext(), link.key, visit.cookie, { items: [{ fileId: dock.id, size: "20x30", paper: "matte", quantity: 1 }], name: "Grace Hopper", email: `visitor-${crypto.randomUUID()}@example.com`, address: ADDRESS });
    await payLocalCheckout(testContext(), sold.url.split("/").pop()!, LOCAL_CARDS.paid);

    type Lines = { mine: { id: string; prints: number; statusLabel: string }[]; fromGalleries: { id: string; buyer: string; gallery: string; statusLabel: string; totalCents: number }[] };
    const lists = await (await get("/api/print-orders", owner.client)).json<Lines>();
    expect(lists.mine).toEqual([expect.objectContaining({ id: own.id, prints: 3, statusLabel: "Waiting for payment" })]);
    expect(lists.fromGalleries).toEqual([expect.objectContaining({ id: sold.id, buyer: "Grace Hopper", gallery: "Wedding", statusLabel: "At the print lab", totalCents: 450 + 490 })]);
    // The visitor's address stays with the order: the gallery's owner sees who and what, not where.
    expect(JSON.stringify(lists.fromGalleries)).not.toContain("Harbour Road");
    expect(await (await get("/api/print-orders", outsider.client)).json<Lines>()).toEqual({ mine: [], fromGalleries: [] });
    expect((await get("/api/print-orders", await newAuthClient())).status).toBe(401);
  });

  it("prices shipping by the country it goes to and ships only where the catalogue says, refusing before payment with the countries it ships to", async () => {
    const member = await signedIn();
    const { folderId, dock } = await galleryOf(member);
    const catalogue = { currency: "eur", shippingCents: 490, shippingByCountry: { US: 1490 }, countries: ["DE", "FR", "US"], sizes: [{ id: "10x15", label: "10 × 15 cm", cents: 90 }], papers: [{ id: "matte", label: "Matte", percent: 0 }] };
    const ctx = createServiceContext({ ...testEnv, PRINT_CATALOGUE: JSON.stringify(catalogue) } as Env, { requestId: "catalogue" });
    const items = [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 2 }];
    const toUs = await createPrintOrder(ctx, member.id, { folderId, items, name: "Ada", address: { ...ADDRESS, country: "us" } });
    expect(await getPrintOrder(ctx, member.id, toUs.id)).toMatchObject({ shippingCents: 1490, totalCents: 180 + 1490 });
    const toFrance = await createPrintOrder(ctx, member.id, { folderId, items, name: "Ada", address: { ...ADDRESS, country: "FR" } });
    expect(await getPrintOrder(ctx, member.id, toFrance.id)).toMatchObject({ shippingCents: 490, totalCents: 180 + 490 });

    const before = await countWhere("select count(*) as n from print_orders");
    await expect(createPrintOrder(ctx, member.id, { folderId, items, name: "Ada", address: { ...ADDRESS, country: "JP" } })).rejects.toMatchObject({ status: 400, message: "address.country: Prints are not shipped to JP. They are shipped to DE, FR, US." });
    expect(await countWhere("select count(*) as n from print_orders")).toBe(before);
  });

  it("ends an order unpaid when its checkout closes (Stripe's sessions last a day), charging nothing and sending nothing to the lab", async () => {
    const member = await signedIn({ email: `prints-${crypto.randomUUID()}@example.com` });
    const { folderId, dock } = await galleryOf(member);
    const { id, session } = await order(member, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }] });
    // Still open: the hourly look leaves it waiting.
    await lookAgainAtOpenOrders(testContext());
    expect((await orderOf(member, id)).status).toBe("created");
    await testEnv.DB.prepare("update local_stripe_objects set data = json_set(data, '$.status', 'expired') where id = ?").bind(session).run();
    await lookAgainAtOpenOrders(testContext());
    const closed = await orderOf(member, id);
    expect(closed).toMatchObject({ status: "expired", statusLabel: "Not paid", failure: null, trackingUrl: null });
    expect(closed.events.map((event) => event.status)).toEqual(["created", "expired"]);
    expect(await labIdOf(id)).toBeNull();
    expect((await mailsTo(member.email)).filter((mail) => mail.subject.includes("print"))).toEqual([]);
    // The closed checkout cannot be paid any more.
    await expect(payLocalCheckout(testContext(), session, LOCAL_CARDS.paid)).rejects.toMatchObject({ status: 409 });
  });

  it("forgets where finished orders went after 180 days, and a visitor's name and e-mail with it, keeping what was bought and paid", async () => {
    const owner = await signedIn({ tier: "pro", email: `prints-${crypto.randomUUID()}@example.com` });
    const { folderId, dock } = await galleryOf(owner);
    const own = await order(owner, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 1 }] });
    await payLocalCheckout(testContext(), own.session, LOCAL_CARDS.paid);
    const link = await publishGallery(owner, folderId, { allowPrints: true });
    const visit = await visitGallery(link.key);
    const sold = await createVisitorPrintOrder(testContext(), link.key, visit.cookie, { items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 2 }], name: "Grace Hopper", email: `visitor-${crypto.randomUUID()}@example.com`, address: ADDRESS });
    await payLocalCheckout(testContext(), sold.url.split("/").pop()!, LOCAL_CARDS.paid);
    const stillOpen = await order(owner, { folderId, items: [{ fileId: dock.id, size: "10x15", paper: "matte", quantity: 3 }] });
    await payLocalCheckout(testContext(), stillOpen.session, LOCAL_CARDS.paid);
    for (const id of [own.id, sold.id]) await advanceLocalLabOrder(testContext(), await labIdOf(id), "shipped");

    const row = (id: string) => testEnv.DB.prepare("select name, email, address, total_cents as total, items from print_orders where id = ?").bind(id).first<{ name: string; email: string; address: string; total: number; items: string }>();
    // Today nothing is due.
    await forgetOldShippingAddresses(testContext());
    expect(JSON.parse((await row(own.id))!.address)).toMatchObject({ line1: "1 Harbour Road" });

    const later = testContext(() => new Date(Date.now() + 181 * 86_400_000));
    expect((await forgetOldShippingAddresses(later)).forgotten).toBeGreaterThanOrEqual(2);
    const mine = (await row(own.id))!;
    expect(JSON.parse(mine.address)).toEqual({ line1: "", city: "", postalCode: "", country: "DE" });
    expect(mine.name).toBe("Ada Lovelace");
    const visitors = (await row(sold.id))!;
    expect({ name: visitors.name, email: visitors.email, address: JSON.parse(visitors.address), total: visitors.total }).toEqual({ name: "Visitor (details removed)", email: "", address: { line1: "", city: "", postalCode: "", country: "DE" }, total: 180 + 490 });
    expect(JSON.parse(visitors.items)).toHaveLength(1);
    // An order still at the lab keeps its address; a second run changes nothing more.
    expect(JSON.parse((await row(stillOpen.id))!.address)).toMatchObject({ line1: "1 Harbour Road" });
    await forgetOldShippingAddresses(later);
    expect((await row(sold.id))!.name).toBe("Visitor (details removed)");
    expect(await orderOf(owner, own.id)).toMatchObject({ status: "shipped", address: { line1: "", country: "DE" } });
  });
});
