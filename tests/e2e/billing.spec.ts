import { seriousViolations } from "./axe-helpers";
import { createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";
import { solidPng } from "../../scripts/bench/png-fixture.mjs";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";

/**
 * Billing (issue 43), the member's journeys: a Free member denied a Business page is offered a
 * free trial in the upgrade modal, reads in the trial modal what they get and for how long,
 * starts it, sees the countdown and opens the page; a member buys a plan with add-ons through the
 * local checkout, finds the invoice, and reviews and confirms a downgrade. Every refusal, the
 * trial's end and Stripe's events are workerd tests (trials.test.ts, billing-stripe.test.ts).
 */
test("a free member offered Business on a locked page starts a 14-day trial from the trial modal, sees the countdown and opens the page", async ({ page }) => {
  await createMember(page.request, { tier: "free" });
  const denied = await page.goto("/workflows");
  expect(denied?.status()).toBe(403);
  await waitForHydration(page);
  const upgrade = page.getByRole("dialog", { name: "Upgrade to use Workflows" });
  await upgrade.getByRole("link", { name: "Try Business free for 14 days" }).click();

  await expect(page).toHaveTitle("Trial - Strongroom");
  const modal = page.getByRole("dialog", { name: "Try Business free for 14 days" });
  await expect(modal).toContainText("No card needed.");
  await expect(modal.getByRole("list", { name: "What Business adds" })).toContainText("Workflows");
  expect(await seriousViolations(page)).toEqual([]);
  await modal.getByRole("button", { name: "Start my free trial" }).click();

  await expect(page.locator(".Toastify__toast").filter({ hasText: "Your Business trial has started: 14 days left." })).toBeVisible();
  await expect(page.getByTestId("trial-running")).toContainText("Your Business trial: 14 days left");
  await expect(page.getByTestId("trial-over-limits")).toHaveText("Everything you have fits Free's limits.");
  await expect(page.getByTestId("trial-countdown")).toHaveText("Business trial · 14 days left");
  const opened = await page.goto("/workflows");
  expect(opened?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
});

test("a free member on a Business trial buys Business with two extra data rooms through checkout, a declined card first (the trial ends); finds the invoice; creates rooms; then reviews a downgrade to Basic, confirms it, and finds the room over Basic read-only, not gone", async ({ page }) => {
  test.setTimeout(90_000);
  await createMember(page.request, { tier: "free" });
  await gotoHydrated(page, "/trial?tier=business");
  await page.getByRole("dialog", { name: "Try Business free for 14 days" }).getByRole("button", { name: "Start my free trial" }).click();
  await expect(page.getByTestId("trial-countdown")).toHaveText("Business trial · 14 days left");
  await gotoHydrated(page, "/settings/subscription");
  await expect(page).toHaveTitle("Subscription - Strongroom");
  await page.getByRole("radio", { name: "Business" }).check();
  await page.getByLabel("Extra data rooms").fill("2");
  await expect(page.getByTestId("plan-total")).toHaveText("Total: €99.00 / month");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Continue to checkout" }).click();

  await expect(page).toHaveTitle("Local checkout - Strongroom");
  await expect(page.getByTestId("checkout-total")).toHaveText("€99.00");
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay €99.00" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "declined" })).toHaveText("Your card was declined. Try another card.");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay €99.00" }).click();

  await expect(page).toHaveTitle("Checkout success - Strongroom");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Business");
  await expect(page.getByTestId("checkout-success")).toContainText("2 × Extra data rooms");
  // Paid for, the trial is over: no countdown.
  await expect(page.getByTestId("trial-countdown")).toHaveCount(0);

  await gotoHydrated(page, "/settings/invoices");
  await expect(page).toHaveTitle("Invoices - Strongroom");
  const invoice = page.getByTestId("invoice-row");
  await expect(invoice).toHaveCount(1);
  await expect(invoice).toContainText("€99.00");
  await expect(invoice).toContainText("Paid");
  const pdf = await page.request.get((await invoice.getByRole("link", { name: /Download invoice/ }).getAttribute("href"))!);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");

  // Six rooms: more than Basic's five.
  const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
  for (const name of ["Atlas", "Borealis", "Cygnus", "Draco", "Eridanus", "Fornax"]) {
    const created = await page.request.post("/api/datarooms", { data: { name: `Project ${name}` }, headers });
    expect(created.status(), await created.text()).toBe(201);
  }

  await gotoHydrated(page, "/settings/subscription");
  await expect(page.getByTestId("subscription-current")).toContainText("Business, monthly");
  await expect(page.getByTestId("next-invoice")).toContainText("€99.00");
  await page.getByRole("radio", { name: "Basic" }).check();
  await page.getByLabel("Extra data rooms").fill("0");
  await page.getByRole("button", { name: "Review change" }).click();
  const review = page.getByTestId("plan-review");
  await expect(review.getByRole("heading", { level: 2 })).toHaveText("Lower your plan to Basic?");
  await expect(page.getByTestId("downgrade-over-limits")).toContainText("6 data rooms; Basic allows 5 data rooms");
  await review.getByRole("button", { name: "Confirm downgrade" }).click();
  await expect(page.locator(".Toastify__toast").filter({ hasText: "Your plan is now Basic." })).toBeVisible();
  await expect(page.getByTestId("subscription-current")).toContainText("Basic, monthly");
  await expect(page.getByTestId("next-invoice")).toContainText("€9.00");
  await expect(page.getByTestId("over-plan")).toContainText("Project Fornax: 6 data rooms; Basic allows 5");

  // All six rooms are there; the newest only reads.
  await gotoHydrated(page, "/datarooms");
  for (const name of ["Atlas", "Borealis", "Cygnus", "Draco", "Eridanus", "Fornax"]) await expect(page.getByRole("link", { name: `Project ${name}`, exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Project Fornax", exact: true }).click();
  await expect(page.getByTestId("room-over-plan")).toContainText("This data room is read-only: it is over your plan (6 data rooms; Basic allows 5).");
  await expect(page.getByText("Read-only", { exact: true })).toBeVisible();
});

test("a member orders prints of two gallery pictures, pays at the local checkout, follows the order, and the lab ships it; a visitor of the gallery, published with prints allowed, orders too", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await createMember(page.request, { tier: "pro" });
  await gotoHydrated(page, "/folders/inbox");
  const csrf = await csrfToken(page);
  const { inbox } = await defaultFolders(page);
  const made = await page.request.post("/api/folders", { data: { parentId: inbox, label: "Harbour walk" }, headers: { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" } });
  expect(made.status(), await made.text()).toBe(201);
  const walk = ((await made.json()) as { folder: { uid: string } }).folder.uid;
  for (const [name, colour] of [["cranes.png", [200, 80, 40]], ["ferry.png", [40, 90, 200]]] as const) await uploadViaTus(page.request, { folderId: walk, name, body: solidPng(96, 64, [...colour]), csrf });

  await gotoHydrated(page, `/folders/${walk}/gallery`);
  await page.getByRole("link", { name: "Order prints" }).click();
  await expect(page).toHaveTitle("Order prints - Strongroom");
  await page.getByRole("checkbox", { name: "cranes.png" }).check();
  await page.getByRole("checkbox", { name: "ferry.png" }).check();
  await page.getByLabel("Copies").first().fill("2");
  await page.getByLabel("Size").selectOption("13x18");
  await page.getByLabel("Paper").selectOption("fine-art");
  await page.getByLabel("Street address").fill("1 Harbour Road");
  await page.getByLabel("Postal code").fill("20457");
  await page.getByLabel("City").fill("Hamburg");
  await page.getByLabel(/^Country/).fill("DE");
  // 3 prints × €2.25 (13 × 18 cm, fine art +50 %) + €4.90 shipping.
  await expect(page.getByTestId("print-total")).toHaveText("3 prints × €2.25 + shipping €4.90 = €11.65");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveTitle("Local checkout - Strongroom");
  await page.getByRole("button", { name: "Pay €11.65" }).click();
  await expect(page).toHaveTitle("Print order created - Strongroom");
  await expect(page.getByTestId("print-order-status")).toContainText("Paid, and with the print lab.");
  await expect(page.getByTestId("print-order-total")).toHaveText("€11.65");
  await expect(page.getByRole("cell", { name: "13 × 18 cm · Fine art" })).toHaveCount(2);
  const orderPath = new URL(page.url()).pathname;

  await gotoHydrated(page, "/dev/lab");
  // The lab was given each picture's original at a signed address it can download without a cookie.
  const pictureAddress = await page.getByTestId("lab-order").first().getByRole("link", { name: "cranes.png" }).getAttribute("href");
  const cookieless = await browser.newContext({ baseURL });
  const picture = await cookieless.request.get(pictureAddress!);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  await cookieless.close();
  await page.getByTestId("lab-order").first().getByRole("button", { name: "Ship" }).click();
  await expect(page.getByTestId("lab-order").first()).toContainText("shipped");
  await gotoHydrated(page, orderPath);
  await expect(page.getByText("Shipped", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Track the parcel" })).toBeVisible();

  // Published as a public gallery with prints allowed: a visitor without an account orders a print.
  const published = await page.request.post("/api/share-links", { data: { target: { type: "folder", id: walk }, presentation: "gallery", allowPrints: true }, headers: { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" } });
  expect(published.status(), await published.text()).toBe(201);
  const galleryUrl = ((await published.json()) as { link: { url: string } }).link.url;
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await gotoHydrated(visitor, new URL(galleryUrl).pathname);
  await visitor.getByRole("link", { name: "Order prints" }).click();
  await expect(visitor).toHaveTitle("Order prints - Strongroom");
  await waitForHydration(visitor);
  await visitor.getByRole("checkbox", { name: "ferry.png" }).check();
  await visitor.getByLabel("Name").fill("Grace Hopper");
  await visitor.getByLabel("E-mail (for the order's news)").fill("grace@example.com");
  await visitor.getByLabel("Street address").fill("2 Dock Lane");
  await visitor.getByLabel("Postal code").fill("1011");
  await visitor.getByLabel("City").fill("Amsterdam");
  await visitor.getByLabel(/^Country/).fill("NL");
  await expect(visitor.getByTestId("print-total")).toHaveText("1 print × €0.90 + shipping €4.90 = €5.80");
  await visitor.getByRole("button", { name: "Continue to payment" }).click();
  await expect(visitor).toHaveTitle("Local checkout - Strongroom");
  await visitor.getByRole("button", { name: "Pay €5.80" }).click();
  await expect(visitor).toHaveTitle("Print order created - Strongroom");
  await expect(visitor.getByTestId("print-order-status")).toContainText("Paid, and with the print lab.");
  expect(new URL(visitor.url()).searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await visitorContext.close();

  // The gallery's owner finds their own order and the visitor's on Print orders.
  await gotoHydrated(page, "/print-orders");
  await expect(page).toHaveTitle("Print orders - Strongroom");
  await expect(page.getByTestId("my-print-order")).toContainText("Shipped");
  await expect(page.getByTestId("gallery-print-order")).toContainText("Grace Hopper");
  await expect(page.getByTestId("gallery-print-order")).toContainText("Harbour walk");
});
