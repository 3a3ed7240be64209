import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFRef } from "pdf-lib";

/** Every page's content streams, decoded, as text (pdf-lib writes the mark's text as hex strings). */
export async function pageContents(bytes: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(bytes);
  return document.getPages().map((page) => {
    const contents = page.node.Contents();
    const refs: PDFRef[] = contents instanceof PDFArray ? (contents.asArray() as PDFRef[]) : [];
    const streams = contents instanceof PDFArray ? refs.map((ref) => document.context.lookup(ref)) : [contents];
    return streams
      .map((stream) => (stream instanceof PDFRawStream ? new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode()) : ""))
      .join("\n");
  });
}

export const hexOf = (text: string) => [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("").toUpperCase();

