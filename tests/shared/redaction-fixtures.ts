import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/**
 * Documents to redact (issue 39): Letter pages with an e-mail address and a sentence each, and
 * optionally the parts that travel with a file (Info and XMP metadata, a document script, an
 * attachment) and a form field.
 */
export const FIXTURE_LINES = { email: (page: number) => `ada.lovelace${page}@example.com`, keep: "Keep this sentence visible." };

export async function redactionFixture(options: { pages?: number; extras?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < (options.pages ?? 3); index += 1) {
    const page = document.addPage([612, 792]);
    page.drawText(`Contact ${FIXTURE_LINES.email(index + 1)} today`, { x: 72, y: 700, size: 12, font });
    page.drawText(FIXTURE_LINES.keep, { x: 72, y: 660, size: 12, font });
  }
  if (options.extras) {
    document.setTitle("Project Falcon term sheet");
    document.setAuthor("Ada Lovelace");
    const xmp = document.context.stream("<x:xmpmeta><dc:creator>XMPSECRET Ada</dc:creator></x:xmpmeta>", { Type: "Metadata", Subtype: "XML" });
    document.catalog.set(PDFName.of("Metadata"), document.context.register(xmp));
    document.addJavaScript("hello", "app.alert('SCRIPTSECRET');");
    await document.attach(new TextEncoder().encode("ATTACHMENTSECRET"), "notes.txt", { mimeType: "text/plain" });
    const form = document.getForm();
    const field = form.createTextField("buyer.name");
    field.setText("FIELDSECRET Buyer");
    field.addToPage(document.getPage(0), { x: 72, y: 560, width: 200, height: 20, font });
  }
  return new Uint8Array(await document.save());
}

/** A mark around the e-mail address on the fixture's page (fractions from the top left). */
export const EMAIL_MARK = (page: number) => ({ page, x: 72 / 612 + 0.07, y: (792 - 712) / 792, w: 0.3, h: 16 / 792 });
/** A mark around the fixture's form field on page 1. */
export const FIELD_MARK = { page: 0, x: 70 / 612, y: (792 - 582) / 792, w: 204 / 612, h: 24 / 792 };
