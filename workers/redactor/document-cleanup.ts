import { PDF, PdfArray, PdfDict, PdfRef } from "@libpdf/core";

/**
 * The document-level part of redaction (issue 39): what is not on a page but travels with the
 * file goes: XMP metadata, document scripts (the JavaScript name tree, the open action and
 * document actions), embedded files, and form fields whose widgets a mark removed (their values
 * would otherwise stay in the form). The next pass writes the file whole, so the objects these
 * pointed to are not written at all.
 */
export async function removeDocumentParts(bytes: Uint8Array): Promise<{ bytes: Uint8Array; removed: string[]; formFieldsRemoved: number }> {
  const pdf = await PDF.load(bytes);
  const catalog = pdf.getCatalog();
  const removed: string[] = [];
  for (const [key, label] of [
    ["Metadata", "XMP metadata"],
    ["OpenAction", "an action run when the document opens"],
    ["AA", "document actions"],
  ] as const) {
    if (catalog.delete(key)) removed.push(label);
  }
  const names = catalog.get("Names", (ref) => pdf.getObject(ref));
  if (names instanceof PdfDict) {
    if (names.delete("JavaScript")) removed.push("document scripts");
    if (names.delete("EmbeddedFiles")) removed.push("embedded files");
  }
  let formFieldsRemoved = 0;
  if (pdf.hasForm()) {
    // The widgets still on a page; a field none of whose widgets is (a mark removed them) goes, value and all.
    const onPages = new Set<string>();
    const key = (ref: PdfRef) => `${ref.objectNumber} ${ref.generation}`;
    for (const page of pdf.getPages()) {
      const annotations = page.dict.get("Annots", (ref) => pdf.getObject(ref));
      if (!(annotations instanceof PdfArray)) continue;
      for (let index = 0; index < annotations.length; index += 1) {
        const item = annotations.at(index);
        if (item instanceof PdfRef) onPages.add(key(item));
      }
    }
    const form = await pdf.getForm();
    for (const field of form?.getFields() ?? []) {
      const widgets = field.getWidgets();
      if (widgets.some((widget) => widget.ref && onPages.has(key(widget.ref)))) continue;
      const ref = field.getRef();
      if (ref && detachField(pdf, ref)) formFieldsRemoved += 1;
    }
  }
  if (removed.length === 0 && formFieldsRemoved === 0) return { bytes, removed, formFieldsRemoved };
  return { bytes: await pdf.save({ incremental: false }), removed, formFieldsRemoved };
}

/** Takes a field out of the form tree (its parent's /Kids, or the form's /Fields), its value and look emptied; a parent left without kids goes too. */
function detachField(pdf: PDF, ref: PdfRef): boolean {
  const dict = pdf.getObject(ref);
  if (!(dict instanceof PdfDict)) return false;
  for (const value of ["V", "DV", "AP"]) dict.delete(value);
  const parentRef = dict.get("Parent");
  const container = parentRef instanceof PdfRef ? pdf.getObject(parentRef) : (pdf.getCatalog().get("AcroForm", (one) => pdf.getObject(one)) ?? null);
  if (!(container instanceof PdfDict)) return false;
  const list = container.get(parentRef instanceof PdfRef ? "Kids" : "Fields", (one) => pdf.getObject(one));
  if (!(list instanceof PdfArray)) return false;
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const item = list.at(index);
    if (item instanceof PdfRef && item.objectNumber === ref.objectNumber && item.generation === ref.generation) list.remove(index);
  }
  if (parentRef instanceof PdfRef && list.length === 0) detachField(pdf, parentRef);
  return true;
}
