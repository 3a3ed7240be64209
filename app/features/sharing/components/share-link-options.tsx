import type { ReactNode } from "react";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FieldErrors } from "~/lib/errors";
import type { ShareLinkFeatures, ShareLinkView } from "../sharing.server";
import { SHARE_AGREEMENT_MAX, SHARE_NAME_MAX, SHARE_PASSWORD_MAX, SHARE_PASSWORD_MIN, SLUG_MAX } from "../sharing.constants";

/** What the form starts with: a new link's defaults, or a link's current options. */
export type ShareLinkFormValues = Pick<
  ShareLinkView,
    | "name"
  | "hasPassword"
  | "expiresAt"
  | "maxViews"
  | "requireEmail"
  | "verifyEmail"
  | "allowList"
  | "denyList"
  | "agreement"
  | "allowDownload"
  | "downloadMode"
  | "printProtection"
  | "watermark"
  | "slug"
  | "presentation"
  | "downloadSize"
  | "showExif"
  | "allowPrints"
>;

export const NEW_SHARE_LINK: ShareLinkFormValues = {
  name: "",
  hasPassword: false,
  expiresAt: null,
  maxViews: null,
  requireEmail: false,
  verifyEmail: false,
  allowList: [],
  denyList: [],
  agreement: null,
  allowDownload: true,
  downloadMode: "original",
  printProtection: false,
  watermark: false,
  slug: null,
  presentation: "document",
  downloadSize: "original",
  showExif: false,
  allowPrints: false,
};

/** A new public gallery's defaults: downloads of the web size, no EXIF shown (a photo's place stays private). */
export const NEW_PUBLIC_GALLERY: ShareLinkFormValues = { ...NEW_SHARE_LINK, presentation: "gallery", downloadSize: "web" };


const UPGRADE = "Not in your plan: see Settings → Plan.";

function Check({ name, label, description, defaultChecked, disabled }: { name: string; label: string; description?: ReactNode; defaultChecked: boolean; disabled?: boolean }) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-900">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} disabled={disabled} className="mt-1" />
      <span>
        <span className="font-medium">{label}</span>
        {description ? <span className="block text-slate-600">{description}</span> : null}
      </span>
    </label>
  );
}

/**
 * The options of a share link, for the create and edit pages (readShareLinkForm reads them back).
 * Options the plan of whoever owns the files does not include are shown, off, with where to get
 * them; the server refuses them anyway.
 */
export function ShareLinkOptions({ values, features, mode, fieldErrors = {} }: { values: ShareLinkFormValues; features: ShareLinkFeatures; mode: "create" | "edit"; fieldErrors?: FieldErrors }) {
  const error = (name: string) => fieldErrors[name]?.[0];
  const isGallery = values.presentation === "gallery";
  const download = !values.allowDownload ? "none" : isGallery ? values.downloadSize : values.downloadMode;
  return (
    <div className="space-y-6">
      <Input label="Name (only you see it)" name="name" defaultValue={values.name} maxLength={SHARE_NAME_MAX} placeholder="For Acme Ventures" error={error("name")} />

      <fieldset className="space-y-3">
        <legend className="text-base font-semibold text-slate-900">Access</legend>
        <Input
          label={mode === "edit" && values.hasPassword ? "New password" : "Password"}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={SHARE_PASSWORD_MIN}
          maxLength={SHARE_PASSWORD_MAX}
          description={mode === "edit" && values.hasPassword ? "Leave empty to keep the current password." : "Optional. Visitors enter it before anything else."}
          error={error("password")}
        />
        {mode === "edit" && values.hasPassword ? <Check name="removePassword" label="Remove the password" defaultChecked={false} /> : null}
        <Input
          label="Expires (UTC)"
          name="expiresAt"
          type="datetime-local"
          defaultValue={values.expiresAt ? values.expiresAt.slice(0, 16) : ""}
          disabled={!features.expiry && !values.expiresAt}
          description={features.expiry ? "Optional. After it the link shows “Preview Link Expired”." : UPGRADE}
          error={error("expiresAt")}
        />
        <Input label="View limit" name="maxViews" type="number" min={1} inputMode="numeric" defaultValue={values.maxViews ?? ""} description="Optional. Each visit counts once; new visitors are refused after the limit." error={error("maxViews")} />
        <Check name="requireEmail" label="Ask for e-mail" description="Visitors give their address before viewing; it names them in the analytics and the watermark." defaultChecked={values.requireEmail} />
        <Check name="verifyEmail" label="Verify the e-mail with a code" description="A 6-digit code is e-mailed to the address (valid 10 minutes)." defaultChecked={values.verifyEmail} />
        <Textarea label="Allow only" name="allowList" rows={2} showCount={false} defaultValue={values.allowList.join("\n")} description="Addresses and @domains, one per line. Empty: anyone with the link. Needs “Ask for e-mail”." error={error("allowList")} />
        <Textarea label="Block" name="denyList" rows={2} showCount={false} defaultValue={values.denyList.join("\n")} description="Addresses and @domains refused even when allowed above." error={error("denyList")} />
        <Textarea label="Agreement (NDA)" name="agreement" rows={4} maxLength={SHARE_AGREEMENT_MAX} defaultValue={values.agreement ?? ""} description="Optional. Visitors type their name and accept it before viewing; you see who accepted when." error={error("agreement")} />
      </fieldset>

      {isGallery ? (
        <fieldset className="space-y-2">
          <legend className="text-base font-semibold text-slate-900">Downloads</legend>
          <input type="hidden" name="presentation" value="gallery" />
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="web" defaultChecked={download === "web"} /> Web size (at most 2048 pixels a side)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="original" defaultChecked={download === "original"} /> Originals (they keep their EXIF, the place included; with the watermark on, visitors get the marked web size)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="none" defaultChecked={download === "none"} disabled={!features.viewOnly && download !== "none"} /> No downloads
            {!features.viewOnly ? <span className="text-slate-600">({UPGRADE})</span> : null}
          </label>
        </fieldset>
      ) : (
        <fieldset className="space-y-2">
          <legend className="text-base font-semibold text-slate-900">Downloads</legend>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="original" defaultChecked={download === "original"} /> Allow downloading the original
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="watermarked" defaultChecked={download === "watermarked"} disabled={!features.watermark && download !== "watermarked"} /> Allow downloading a watermarked copy
            {!features.watermark ? <span className="text-slate-600">({UPGRADE})</span> : null}
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="download" value="none" defaultChecked={download === "none"} disabled={!features.viewOnly && download !== "none"} /> View only, no download
            {!features.viewOnly ? <span className="text-slate-600">({UPGRADE})</span> : null}
          </label>
        </fieldset>
      )}

      <fieldset className="space-y-2">
        <legend className="text-base font-semibold text-slate-900">Protection</legend>
        <Check
          name="watermark"
          label={isGallery ? "Watermark every picture" : "Watermark every page"}
          description={features.watermark ? `The visitor's e-mail, the time and their address, burned into what they see${isGallery ? " (videos are then left out: they cannot carry it)" : ""}.` : UPGRADE}
          defaultChecked={values.watermark}
          disabled={!features.watermark && !values.watermark}
        />
        {isGallery ? (
          <>
            <Check name="showExif" label="Show what the pictures' EXIF says" description="The date taken, the camera and the place, under each picture." defaultChecked={values.showExif} />
            <Check name="allowPrints" label="Let visitors order prints" description="They choose pictures, sizes and papers and pay at checkout; the print lab ships to them." defaultChecked={values.allowPrints} />
          </>
        ) : (
          <Check name="printProtection" label="Keep pages out of print" description={features.print ? "A deterrent: a screenshot still works." : UPGRADE} defaultChecked={values.printProtection} disabled={!features.print && !values.printProtection} />
        )}
      </fieldset>

      <Input label="Custom address" name="slug" defaultValue={values.slug ?? ""} maxLength={SLUG_MAX} description={`Optional: ${isGallery ? "/public-gallery" : "/s"}/your-address, with lower-case letters, digits and dashes. Without it the address is a long random token.`} error={error("slug")} />
    </div>
  );
}
