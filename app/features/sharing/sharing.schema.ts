import { z } from "zod";
import {
  RESERVED_SLUGS,
  SHARE_AGREEMENT_MAX,
  SHARE_LIST_MAX,
  SHARE_MAX_VIEWS_LIMIT,
  SHARE_NAME_MAX,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  SLUG_MAX,
  SLUG_MIN,
  SLUG_PATTERN,
} from "./sharing.constants";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** An allow or deny list: addresses and @domains, lower-cased, without repeats. */
const addressList = (field: string) =>
  z
    .array(z.string({ error: `${field} holds e-mail addresses and @domains.` }).trim().toLowerCase().max(254), { error: `${field} must be a list of e-mail addresses and @domains.` })
    .max(SHARE_LIST_MAX, `${field} holds at most ${SHARE_LIST_MAX} entries.`)
    .transform((entries) => [...new Set(entries.filter(Boolean))])
    .superRefine((entries, context) => {
      const wrong = entries.find((entry) => !(EMAIL.test(entry) || DOMAIN.test(entry)));
      if (wrong) context.addIssue({ code: "custom", message: `“${wrong}” is neither an e-mail address nor a domain like @example.com.` });
    });

/** A custom address (/s/{slug}, /r/{slug}): lower-case letters, digits and dashes, not a reserved word. */
export const customAddressSchema = z
  .string({ error: "The custom address must be text." })
  .trim()
  .toLowerCase()
  .min(SLUG_MIN, `A custom address has at least ${SLUG_MIN} characters.`)
  .max(SLUG_MAX, `A custom address has at most ${SLUG_MAX} characters.`)
  .regex(SLUG_PATTERN, "A custom address uses lower-case letters, digits and dashes, and starts and ends with a letter or digit.")
  .refine((slug) => !RESERVED_SLUGS.has(slug), "That custom address is reserved. Choose another.");

const optionsShape = {
  name: z.string({ error: "The name must be text." }).trim().max(SHARE_NAME_MAX, `A link's name is at most ${SHARE_NAME_MAX} characters.`),
  password: z
    .string({ error: "The password must be text." })
    .min(SHARE_PASSWORD_MIN, `A link password has at least ${SHARE_PASSWORD_MIN} characters.`)
    .max(SHARE_PASSWORD_MAX, `A link password has at most ${SHARE_PASSWORD_MAX} characters.`)
    .nullable(),
  expiresAt: z.iso.datetime({ offset: true, error: "The expiry must be a date and time, like 2026-12-31T18:00:00Z." }).nullable(),
  maxViews: z
    .number({ error: "The view limit must be a whole number." })
    .int("The view limit must be a whole number.")
    .min(1, "The view limit is at least 1.")
    .max(SHARE_MAX_VIEWS_LIMIT, `The view limit is at most ${SHARE_MAX_VIEWS_LIMIT.toLocaleString("en-US")}.`)
    .nullable(),
  requireEmail: z.boolean({ error: "requireEmail must be true or false." }),
  verifyEmail: z.boolean({ error: "verifyEmail must be true or false." }),
  allowList: addressList("The allow list"),
  denyList: addressList("The deny list"),
  agreement: z.string({ error: "The agreement must be text." }).trim().max(SHARE_AGREEMENT_MAX, `An agreement is at most ${SHARE_AGREEMENT_MAX.toLocaleString("en-US")} characters.`).nullable(),
  allowDownload: z.boolean({ error: "allowDownload must be true or false." }),
  downloadMode: z.enum(["original", "watermarked"], { error: "downloadMode is original or watermarked." }),
  printProtection: z.boolean({ error: "printProtection must be true or false." }),
  watermark: z.boolean({ error: "watermark must be true or false." }),
  slug: customAddressSchema.nullable(),
  downloadSize: z.enum(["original", "web"], { error: "downloadSize is original or web." }),
  showExif: z.boolean({ error: "showExif must be true or false." }),
  allowPrints: z.boolean({ error: "allowPrints must be true or false." }),
};

/** POST /api/share-links: what to share and the link's options (everything but the target is optional). */
export const createShareLinkSchema = z.object({
  target: z.object(
    {
      type: z.enum(["file", "folder", "room"], { error: "target.type is file, folder or room." }),
      id: z.string({ error: "target.id is the id of what to share." }).trim().min(1, "target.id is the id of what to share.").max(64),
    },
    { error: "target is required: { type: file | folder | room, id }." },
  ),
  name: optionsShape.name.default(""),
  password: optionsShape.password.default(null),
  expiresAt: optionsShape.expiresAt.default(null),
  maxViews: optionsShape.maxViews.default(null),
  requireEmail: optionsShape.requireEmail.default(false),
  verifyEmail: optionsShape.verifyEmail.default(false),
  allowList: optionsShape.allowList.default([]),
  denyList: optionsShape.denyList.default([]),
  agreement: optionsShape.agreement.default(null),
  allowDownload: optionsShape.allowDownload.default(true),
  downloadMode: optionsShape.downloadMode.default("original"),
  printProtection: optionsShape.printProtection.default(false),
  watermark: optionsShape.watermark.default(false),
  slug: optionsShape.slug.default(null),
  /** A public gallery (/public-gallery/{key}) of a folder, or the document viewer (/s/{key}). */
  presentation: z.enum(["document", "gallery"], { error: "presentation is document or gallery." }).default("document"),
  downloadSize: optionsShape.downloadSize.default("original"),
  showExif: optionsShape.showExif.default(false),
  allowPrints: optionsShape.allowPrints.default(false),
});
export type CreateShareLinkInput = z.input<typeof createShareLinkSchema>;

/** PATCH /api/share-links/{id}: the options to change (a password of null removes it; absent keeps it). */
export const updateShareLinkSchema = z.object(optionsShape).partial();
export type ShareLinkOptions = z.output<typeof createShareLinkSchema>;
