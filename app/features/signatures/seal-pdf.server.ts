import { type FontInput, HttpTimestampAuthority, measureText, ops, PDF, type PDFImage, type PDFPage, rgb, StandardFonts } from "@libpdf/core";
import { DRAWN_PREFIX, SIGNATURE_HEIGHT, SIGNATURE_WIDTH, TYPED_PREFIX } from "~/features/forms/signature-format";
import { AppError } from "~/lib/errors";
import { CHECKED, IMAGE_PREFIX, SIGN_FIELD_LABELS, type SignField } from "./signature-fields";
import { sha256Hex, type SigningIdentity } from "./signing-identity.server";
import { pageViewOf } from "~/lib/pdf-page-view";

/**
 * Sealing (issue 38, ADR 031): the recipients' values are drawn into the pages, a certificate of
 * completion and the audit trail are appended as pages, then one PAdES signature of the platform
 * (ETSI.CAdES.detached, B-B; B-T with a timestamp authority) closes the file. Pure: bytes in,
 * bytes out; the envelope use case reads and stores them.
 */

export type SealRecipient = {
  name: string;
  email: string;
  kind: string;
  verification: string;
  ip: string | null;
  userAgent: string | null;
  sentAt: Date | null;
  openedAt: Date | null;
  signedAt: Date | null;
};

export type SealEvent = { at: Date; who: string; what: string; ip: string | null };

export type SealInput = {
  original: Uint8Array;
  envelopeId: string;
  title: string;
  sender: { name: string; email: string };
  fields: SignField[];
  /** Field id → value, every recipient's together. */
  values: Record<string, string>;
  /** Field id → the uploaded picture ("image:" values), PNG or JPEG. */
  images?: Record<string, Uint8Array>;
  recipients: SealRecipient[];
  events: SealEvent[];
  completedAt: Date;
  /** Where anyone can check the file, printed on the certificate. */
  verifyUrl: string;
  identity: SigningIdentity;
};

export type SealResult = { bytes: Uint8Array; originalSha256: string; contentSha256: string; pageCount: number };

const INK = rgb(0.06, 0.09, 0.16);
const MUTED = rgb(0.35, 0.38, 0.45);
const RULE = rgb(0.8, 0.82, 0.86);

/**
 * The standard 14 fonts write WinAnsi only: accents are kept, other scripts fall back to their
 * base letters or "?" (docs/signatures.md: an embedded Unicode font is the next step).
 */
export function winAnsi(text: string): string {
  const extra = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
  let out = "";
  for (const char of text.replace(/[\r\n\t]+/g, " ")) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || extra.includes(char)) out += char;
    else {
      const base = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += /^[\x20-\x7e]+$/.test(base) ? base : "?";
    }
  }
  return out;
}

function fitText(text: string, font: FontInput, maxWidth: number, maxSize: number): number {
  let size = maxSize;
  while (size > 5 && measureText(text, font, size) > maxWidth) size -= 0.5;
  return size;
}

/**
 * A page box's corners. @libpdf/core's getMediaBox/getCropBox answer the PDF array as it stands,
 * [x1 y1 x2 y2], under the names x, y, width, height (so "width" is x2); the sealing test of a
 * cropped page pins this reading.
 */
function corners(box: { x: number; y: number; width: number; height: number }): { x1: number; y1: number; x2: number; y2: number } {
  return { x1: box.x, y1: box.y, x2: box.width, y2: box.height };
}

function drawField(page: PDFPage, field: SignField, value: string, image: PDFImage | null) {
  // Fields are fractions of the page as the signer saw it (lib/pdf-page-view.ts).
  const view = pageViewOf(page.rotation, corners(page.getMediaBox()), corners(page.getCropBox()));
  page.drawOperators([ops.pushGraphicsState(), ops.concatMatrix(...view.matrix)]);
  try {
    drawInView(page, view.width, view.height, field, value, image);
  } finally {
    page.drawOperators([ops.popGraphicsState()]);
  }
}

function drawInView(page: PDFPage, width: number, height: number, field: SignField, value: string, image: PDFImage | null) {
  const box = { x: field.x * width, y: height - (field.y + field.h) * height, w: field.w * width, h: field.h * height };
  if (field.type === "checkbox") {
    if (value !== CHECKED) return;
    const inset = Math.min(box.w, box.h) * 0.2;
    page.drawLine({ start: { x: box.x + inset, y: box.y + box.h / 2 }, end: { x: box.x + box.w * 0.42, y: box.y + inset }, color: INK, thickness: 1.5 });
    page.drawLine({ start: { x: box.x + box.w * 0.42, y: box.y + inset }, end: { x: box.x + box.w - inset, y: box.y + box.h - inset }, color: INK, thickness: 1.5 });
    return;
  }
  if (value.startsWith(IMAGE_PREFIX)) {
    if (!image) throw new AppError("INTERNAL_ERROR", `The picture for field ${field.id} is missing.`);
    // Fitted into the field, its proportions kept, centred.
    const scale = Math.min(box.w / image.width, box.h / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    page.drawImage(image, { x: box.x + (box.w - width) / 2, y: box.y + (box.h - height) / 2, width, height });
    return;
  }
  if (value.startsWith(DRAWN_PREFIX)) {
    const scale = Math.min(box.w / SIGNATURE_WIDTH, box.h / SIGNATURE_HEIGHT);
    const left = box.x + (box.w - SIGNATURE_WIDTH * scale) / 2;
    const top = box.y + box.h - (box.h - SIGNATURE_HEIGHT * scale) / 2;
    page.drawSvgPath(value.slice(DRAWN_PREFIX.length), { x: left, y: top, scale, borderColor: INK, borderWidth: 2.5 });
    return;
  }
  if (field.type === "stamp") {
    page.drawRectangle({ x: box.x, y: box.y, width: box.w, height: box.h, borderColor: rgb(0.1, 0.2, 0.55), borderWidth: 2 });
    page.drawRectangle({ x: box.x + 3, y: box.y + 3, width: box.w - 6, height: box.h - 6, borderColor: rgb(0.1, 0.2, 0.55), borderWidth: 0.75 });
    const text = winAnsi(value).toUpperCase();
    const size = fitText(text, StandardFonts.HelveticaBold, box.w - 14, Math.min(16, box.h * 0.45));
    page.drawText(text, { x: box.x + (box.w - measureText(text, StandardFonts.HelveticaBold, size)) / 2, y: box.y + (box.h - size) / 2 + size * 0.2, size, font: StandardFonts.HelveticaBold, color: rgb(0.1, 0.2, 0.55) });
    return;
  }
  const typed = value.startsWith(TYPED_PREFIX);
  const text = winAnsi(typed ? value.slice(TYPED_PREFIX.length) : value);
  const font = typed ? StandardFonts.TimesItalic : StandardFonts.Helvetica;
  const size = fitText(text, font, box.w - 4, Math.min(typed ? 24 : 11, box.h * 0.8));
  page.drawText(text, { x: box.x + 2, y: box.y + (box.h - size) / 2 + size * 0.22, size, font, color: INK });
}

/** A simple flowing layout for the appended pages: A4, one column, a new page when full. */
class Report {
  private page: PDFPage;
  private y = 0;
  private readonly margin = 56;
  constructor(
    private readonly pdf: PDF,
    private readonly footer: string,
  ) {
    this.page = this.newPage();
  }
  private newPage(): PDFPage {
    const page = this.pdf.addPage({ size: "a4" });
    this.y = page.height - this.margin;
    page.drawText(winAnsi(this.footer), { x: this.margin, y: 28, size: 7.5, color: MUTED });
    this.page = page;
    return page;
  }
  private room(needed: number) {
    if (this.y - needed < this.margin) this.newPage();
  }
  heading(text: string, size = 18) {
    this.room(size + 12);
    this.y -= size;
    this.page.drawText(winAnsi(text), { x: this.margin, y: this.y, size, font: StandardFonts.HelveticaBold, color: INK });
    this.y -= 10;
  }
  line(label: string, value: string, size = 9.5) {
    const width = this.page.width - this.margin * 2 - 150;
    const words = winAnsi(value || "-").split(" ");
    const lines: string[] = [];
    let current = "";
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (current && measureText(next, StandardFonts.Helvetica, size) > width) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    lines.push(current);
    this.room(lines.length * (size + 3) + 2);
    this.page.drawText(winAnsi(label), { x: this.margin, y: this.y - size, size, font: StandardFonts.HelveticaBold, color: MUTED });
    for (const text of lines) {
      this.y -= size + 3;
      // Very long unbroken strings (hashes, user agents) are cut to the line.
      let shown = text;
      while (shown.length > 1 && measureText(shown, StandardFonts.Helvetica, size) > width) shown = shown.slice(0, -1);
      this.page.drawText(shown, { x: this.margin + 150, y: this.y, size, color: INK });
    }
    this.y -= 3;
  }
  rule() {
    this.room(14);
    this.y -= 6;
    this.page.drawLine({ start: { x: this.margin, y: this.y }, end: { x: this.page.width - this.margin, y: this.y }, color: RULE, thickness: 0.75 });
    this.y -= 8;
  }
  gap(points = 8) {
    this.y -= points;
  }
}

const when = (date: Date | null) => (date ? `${date.toISOString().replace("T", " ").slice(0, 19)} UTC` : "-");

export async function sealPdf(input: SealInput): Promise<SealResult> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(input.original);
  } catch {
    throw new AppError("UNPROCESSABLE", "The document could not be read as a PDF, so it cannot be sealed.");
  }
  const pageCount = pdf.getPageCount();
  // One embedded image per distinct picture (the same signature in ten places is stored once).
  const embedded = new Map<string, PDFImage>();
  for (const field of input.fields) {
    const value = field.type === "date" || field.type === "email" || input.values[field.id] ? input.values[field.id] : null;
    const page = pdf.getPage(field.page);
    if (!page || !value) continue;
    let image: PDFImage | null = null;
    const bytes = input.images?.[field.id];
    if (value.startsWith(IMAGE_PREFIX) && bytes) {
      image = embedded.get(value) ?? pdf.embedImage(bytes);
      embedded.set(value, image);
    }
    drawField(page, field, value, image);
  }
  const originalSha256 = await sha256Hex(input.original);
  const contentSha256 = await sha256Hex(await pdf.save());

  const report = new Report(pdf, `Certificate of completion - envelope ${input.envelopeId} - check this file at ${input.verifyUrl}`);
  report.heading("Certificate of completion");
  report.line("Document", input.title);
  report.line("Envelope", input.envelopeId);
  report.line("Sent by", `${input.sender.name} <${input.sender.email}>`);
  report.line("Completed", when(input.completedAt));
  report.line("Pages", `${pageCount} signed page${pageCount === 1 ? "" : "s"}, then this certificate and the audit trail`);
  report.line("SHA-256 of the original", originalSha256);
  report.line("SHA-256 of the signed pages", `${contentSha256} (the document with every field drawn in, before these pages)`);
  report.line("Sealed by", "The platform's certificate (a PAdES signature over the whole file). Any change after sealing breaks it.");
  report.line("Check it", input.verifyUrl);
  report.rule();
  report.heading("Recipients", 13);
  for (const recipient of input.recipients) {
    report.line("Name", `${recipient.name} <${recipient.email}>`);
    report.line("Role", recipient.kind);
    report.line("Verification", recipient.verification);
    report.line("Sent", when(recipient.sentAt));
    report.line("Opened", when(recipient.openedAt));
    report.line(recipient.kind === "Gets a copy" ? "Copy sent" : "Signed", when(recipient.signedAt));
    report.line("IP address", recipient.ip ?? "-");
    report.line("Device", recipient.userAgent ?? "-");
    report.rule();
  }
  report.heading("Audit trail", 13);
  for (const event of input.events) report.line(when(event.at), `${event.what} - ${event.who}${event.ip ? ` (IP ${event.ip})` : ""}`, 8.5);

  const signed = await pdf.sign({
    signer: input.identity.signer,
    reason: `Sealed on completion of "${winAnsi(input.title)}" (every recipient signed)`,
    location: "Strongroom",
    signingTime: input.completedAt,
    fieldName: `Strongroom_seal_${input.envelopeId}`,
    ...(input.identity.timestampUrl ? { level: "B-T" as const, timestampAuthority: new HttpTimestampAuthority(input.identity.timestampUrl) } : {}),
    estimatedSize: input.identity.timestampUrl ? 16_384 : 8_192,
  });
  return { bytes: signed.bytes, originalSha256, contentSha256, pageCount };
}

export { SIGN_FIELD_LABELS };
