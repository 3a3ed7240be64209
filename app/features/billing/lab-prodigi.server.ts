import { z } from "zod";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { LabRefusal, type LabOrderState, type PrintLab } from "./print-lab.types";

/**
 * Prodigi's Print API v4 as the print lab (PRINT_LAB_DRIVER=prodigi, docs/billing.md): an order is
 * POST /Orders (X-API-Key; the print order's id is both its merchant reference and its idempotency
 * key, so a retry returns the first order, outcome AlreadyExists), each picture one item whose SKU
 * and attributes PRODIGI_PRODUCTS maps from the catalogue's size and paper, its asset the
 * original's signed address. Prodigi's callbacks (CloudEvents, unsigned) arrive at the order's
 * signed callback address and only say "look again": GET /Orders/{id} is what counts.
 */

const productsSchema = z.record(
  z.string().regex(/^[^/]+\/[^/]+$/, 'PRODIGI_PRODUCTS: each key is "<size>/<paper>" of the print catalogue.'),
  z.object({ sku: z.string().min(1), attributes: z.record(z.string(), z.string()).optional() }),
);
export type ProdigiProducts = z.infer<typeof productsSchema>;

function productsOf(ctx: ServiceContext): ProdigiProducts {
  let json: unknown;
  try {
    json = JSON.parse(readConfig(ctx.env).PRODIGI_PRODUCTS ?? "");
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "PRODIGI_PRODUCTS is not JSON (docs/configuration.md).");
  }
  const parsed = productsSchema.safeParse(json);
  if (!parsed.success) throw new AppError("SERVICE_UNAVAILABLE", `${parsed.error.issues[0]?.message ?? "PRODIGI_PRODUCTS is not valid"} (docs/configuration.md).`);
  return parsed.data;
}

type ProdigiOrder = {
  id: string;
  status?: { stage?: string; issues?: { errorCode?: string; description?: string }[] };
  shipments?: { status?: string; tracking?: { url?: string | null } | null }[];
};

/** What Prodigi answered, or why not: a refusal of the order itself (400) is the buyer's; the rest is ours to retry. */
async function call(ctx: ServiceContext, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const config = readConfig(ctx.env);
  let response: Response;
  try {
    response = await fetch(`${config.PRODIGI_API_URL.replace(/\/$/, "")}${path}`, {
      method,
      headers: { "X-API-Key": config.PRODIGI_API_KEY ?? "", "Content-Type": "application/json", Accept: "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    ctx.logger.warn("print lab unreachable", { path, error: error instanceof Error ? error.message : String(error) });
    throw new AppError("SERVICE_UNAVAILABLE", "The print lab cannot be reached just now. The order is kept and sent again shortly.");
  }
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 401 || response.status === 403) {
    ctx.logger.error("print lab refused the API key", { path, status: response.status });
    throw new AppError("SERVICE_UNAVAILABLE", "The print lab refused our key (PRODIGI_API_KEY). The order is kept and sent again once it is fixed.");
  }
  if (response.status >= 500 || response.status === 429) {
    ctx.logger.warn("print lab answered an error", { path, status: response.status, outcome: json.outcome });
    throw new AppError("SERVICE_UNAVAILABLE", "The print lab cannot take orders just now. The order is kept and sent again shortly.");
  }
  return { status: response.status, json };
}

/** "recipient.address.countryCode" → "the country"; Prodigi names the failing fields, the buyer reads words. */
function refusalOf(json: Record<string, unknown>): string {
  const fields = Object.keys((json.failures as Record<string, unknown> | undefined) ?? {});
  const words = fields.map((field) => (/countryCode/i.test(field) ? "the country" : /postalOrZipCode/i.test(field) ? "the postal code" : /address|townOrCity/i.test(field) ? "the address" : /sku|attributes/i.test(field) ? "a size or paper" : /assets/i.test(field) ? "a picture" : field));
  const unique = [...new Set(words)];
  return unique.length > 0 ? `The print lab cannot make or ship this order (it refused ${unique.join(", ")}).` : "The print lab cannot make or ship this order.";
}

function stateOf(order: ProdigiOrder): LabOrderState {
  const stage = order.status?.stage ?? "InProgress";
  if (stage === "Complete") return { status: "shipped", trackingUrl: order.shipments?.find((shipment) => shipment.tracking?.url)?.tracking?.url ?? null, failure: null };
  if (stage === "Cancelled") return { status: "failed", trackingUrl: null, failure: "The print lab cancelled this order." };
  // A picture the lab could not download after all its attempts stops the order for good.
  if (order.status?.issues?.some((issue) => issue.errorCode?.endsWith("FailedToDownloaded") || issue.errorCode?.endsWith("FailedToDownload"))) {
    return { status: "failed", trackingUrl: null, failure: "The print lab could not fetch a picture of this order (it may have been deleted)." };
  }
  return { status: "received", trackingUrl: null, failure: null };
}

export function prodigiLab(ctx: ServiceContext, catalogue: { sizes: { id: string }[]; papers: { id: string }[] }): PrintLab {
  const products = productsOf(ctx);
  const missing = catalogue.sizes.flatMap((size) => catalogue.papers.map((paper) => `${size.id}/${paper.id}`)).filter((key) => !products[key]);
  return {
    check(items) {
      const unmapped = items.map((item) => `${item.size}/${item.paper}`).find((key) => !products[key]);
      if (unmapped || missing.length > 0) {
        ctx.logger.error("print lab products incomplete", { missing });
        throw new AppError("SERVICE_UNAVAILABLE", `Prints of ${unmapped ?? missing[0]} cannot be ordered just now: the print lab has no product for it (PRODIGI_PRODUCTS, docs/configuration.md). Nothing was charged.`);
      }
    },
    async submit(input) {
      const { json, status } = await call(ctx, "POST", "/Orders", {
        merchantReference: input.reference,
        idempotencyKey: input.reference,
        callbackUrl: input.callbackUrl,
        shippingMethod: readConfig(ctx.env).PRODIGI_SHIPPING_METHOD,
        recipient: {
          name: input.recipient.name,
          email: input.recipient.email,
          address: {
            line1: input.recipient.address.line1,
            ...(input.recipient.address.line2 ? { line2: input.recipient.address.line2 } : {}),
            postalOrZipCode: input.recipient.address.postalCode,
            countryCode: input.recipient.address.country,
            townOrCity: input.recipient.address.city,
          },
        },
        items: input.items.map((item) => {
          const product = products[`${item.size}/${item.paper}`];
          if (!product) throw new LabRefusal("The print lab has no product for one of the sizes or papers of this order.");
          return {
            merchantReference: item.fileId,
            sku: product.sku,
            ...(product.attributes ? { attributes: product.attributes } : {}),
            copies: item.quantity,
            sizing: "fillPrintArea",
            recipientCost: { amount: (item.unitCents / 100).toFixed(2), currency: input.currency.toUpperCase() },
            assets: [{ printArea: "default", url: item.assetUrl }],
          };
        }),
        metadata: { strongroomOrder: input.reference },
      });
      const order = json.order as ProdigiOrder | undefined;
      if (status === 200 && order?.id) return { labOrderId: order.id };
      if (status === 400) throw new LabRefusal(refusalOf(json));
      ctx.logger.error("print lab answered an order unexpectedly", { status, outcome: json.outcome });
      throw new AppError("SERVICE_UNAVAILABLE", "The print lab gave an answer we do not understand. The order is kept and sent again shortly.");
    },
    async read(labOrderId) {
      const { json, status } = await call(ctx, "GET", `/Orders/${encodeURIComponent(labOrderId)}`);
      const order = json.order as ProdigiOrder | undefined;
      if (status === 404) throw new AppError("NOT_FOUND", "The lab does not know this order.");
      if (status !== 200 || !order) throw new AppError("SERVICE_UNAVAILABLE", "The print lab gave an answer we do not understand.");
      return stateOf(order);
    },
    async cancel(labOrderId) {
      const { json } = await call(ctx, "POST", `/Orders/${encodeURIComponent(labOrderId)}/actions/cancel`);
      // Already cancelled, or past the point of no return: nothing more to do here, but ops should know.
      if (String(json.outcome).toLowerCase() !== "cancelled") ctx.logger.warn("print lab did not cancel an order", { labOrderId, outcome: json.outcome });
    },
  };
}
