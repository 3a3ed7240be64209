import { sniffContentType } from "~/features/files/sniff.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { RECEIVE_LOGO_MAX_BYTES, RECEIVE_LOGO_TYPES } from "./receive.constants";
import { setReceivePageLogo } from "./receive.queries.server";
import { openReceivePage } from "./receive.server";

/**
 * A receive page's logo (issue 24, branding): a small PNG, JPEG, WebP or GIF the owner uploads,
 * recognised by its bytes (never SVG: it could carry script), kept in R2 under the page, shown on
 * the visitor's page from /r/{address}/logo.
 */

/** The page as someone who may change it (its maker, or the team's people with receive.edit). */
async function ownPageRow(ctx: ServiceContext, userId: string, pageId: string) {
  return (await openReceivePage(ctx, userId, pageId, "receive.edit")).page;
}

/** Puts a new logo on the page (or removes it with `null`); the previous one is deleted. */
export async function replaceReceivePageLogo(ctx: ServiceContext, userId: string, pageId: string, file: File | null): Promise<void> {
  const page = await ownPageRow(ctx, userId, pageId);
  let logo: { key: string; type: string } | null = null;
  if (file) {
    if (file.size === 0) throw new AppError("VALIDATION_ERROR", "Choose an image for the logo.", { fieldErrors: { logo: ["Choose an image."] } });
    if (file.size > RECEIVE_LOGO_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `A logo is at most ${RECEIVE_LOGO_MAX_BYTES / 1024} KB.`, { fieldErrors: { logo: ["That image is too large."] } });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = await sniffContentType(bytes.subarray(0, 4100), file.name, true);
    if (!(RECEIVE_LOGO_TYPES as readonly string[]).includes(type)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "A logo is a PNG, JPEG, WebP or GIF image.", { fieldErrors: { logo: ["Use a PNG, JPEG, WebP or GIF image."] } });
    }
    logo = { key: `receive-logos/${page.id}/${crypto.randomUUID()}`, type };
    await ctx.env.FILES.put(logo.key, bytes, { httpMetadata: { contentType: type } });
  }
  await setReceivePageLogo(ctx.db, page.userId, page.id, logo, ctx.now());
  if (page.logoKey) await ctx.env.FILES.delete(page.logoKey);
}

/** The logo's bytes for the visitor's page, or null when the page has none. */
export async function readReceivePageLogo(ctx: ServiceContext, logo: { key: string | null; type: string | null }): Promise<{ body: ReadableStream; type: string; size: number } | null> {
  if (!logo.key || !logo.type) return null;
  const object = await ctx.env.FILES.get(logo.key);
  return object ? { body: object.body, type: logo.type, size: object.size } : null;
}
