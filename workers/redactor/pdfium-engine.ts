import type { WrappedPdfiumModule } from "@embedpdf/pdfium";
import type { PageRect, RedactionMark } from "~/features/redaction/redaction-types";

/**
 * PDFium's part of redaction (issue 39, ADR 032): glyphs under each mark removed and image pixels
 * there cleared (`EPDFText_RedactInRect`, which also paints the black box into the content), the
 * annotations and form widgets a mark touches removed, attachments deleted, the Info metadata
 * emptied, and the file written whole (`FPDF_SaveAsCopy` without incremental update: objects
 * nothing refers to any more are not written). Pure: bytes in, bytes out.
 */

const SAVE_WHOLE = 2; // FPDF_NO_INCREMENTAL
const DEVICE = 10_000; // marks are fractions; PDFium maps this device box onto the shown page
const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;

export class EngineRefusal extends Error {}

type Memory = { alloc(size: number): number; free(pointer: number): void; u8: () => Uint8Array; f32: () => Float32Array; f64: () => Float64Array };

/** The module's heap views, read each time (they are replaced when the memory grows). */
function memory(m: WrappedPdfiumModule): Memory {
  const heaps = m.pdfium as unknown as { HEAPU8: Uint8Array; HEAPF32: Float32Array; HEAPF64: Float64Array };
  return { alloc: (size) => m.pdfium.wasmExports.malloc(size), free: (pointer) => m.pdfium.wasmExports.free(pointer), u8: () => heaps.HEAPU8, f32: () => heaps.HEAPF32, f64: () => heaps.HEAPF64 };
}

function openDocument(m: WrappedPdfiumModule, mem: Memory, bytes: Uint8Array): { doc: number; close(): void } {
  const pointer = mem.alloc(bytes.byteLength);
  mem.u8().set(bytes, pointer);
  const doc = m.FPDF_LoadMemDocument(pointer, bytes.byteLength, "");
  if (!doc) {
    mem.free(pointer);
    const error = m.FPDF_GetLastError();
    if (error === FPDF_ERR_PASSWORD || error === FPDF_ERR_SECURITY) throw new EngineRefusal("This PDF is protected with a password: remove the protection, upload it again, then redact it.");
    throw new EngineRefusal("This file could not be read as a PDF, so nothing in it can be redacted.");
  }
  return {
    doc,
    close() {
      m.FPDF_CloseDocument(doc);
      mem.free(pointer);
    },
  };
}

function saveWhole(m: WrappedPdfiumModule, mem: Memory, doc: number): Uint8Array {
  const writer = m.PDFiumExt_OpenFileWriter();
  try {
    if (!m.FPDF_SaveAsCopy(doc, writer, SAVE_WHOLE)) throw new EngineRefusal("The redacted PDF could not be written.");
    const length = m.PDFiumExt_GetFileWriterSize(writer);
    const pointer = mem.alloc(length);
    try {
      m.PDFiumExt_GetFileWriterData(writer, pointer, length);
      return mem.u8().slice(pointer, pointer + length);
    } finally {
      mem.free(pointer);
    }
  } finally {
    m.PDFiumExt_CloseFileWriter(writer);
  }
}

/** A mark (fractions of the page as shown) in the page's PDF coordinates. */
function pageRectOf(m: WrappedPdfiumModule, mem: Memory, page: number, pageIndex: number, mark: RedactionMark): PageRect {
  const out = mem.alloc(16);
  try {
    const corner = (fx: number, fy: number) => {
      m.FPDF_DeviceToPage(page, 0, 0, DEVICE, DEVICE, 0, Math.round(fx * DEVICE), Math.round(fy * DEVICE), out, out + 8);
      return [mem.f64()[out / 8]!, mem.f64()[out / 8 + 1]!] as const;
    };
    const [x1, y1] = corner(mark.x, mark.y);
    const [x2, y2] = corner(mark.x + mark.w, mark.y + mark.h);
    return { page: pageIndex, left: Math.min(x1, x2), right: Math.max(x1, x2), bottom: Math.min(y1, y2), top: Math.max(y1, y2) };
  } finally {
    mem.free(out);
  }
}

function boundedText(m: WrappedPdfiumModule, mem: Memory, textPage: number, rect: PageRect): string {
  const count = m.FPDFText_GetBoundedText(textPage, rect.left, rect.top, rect.right, rect.bottom, 0, 0);
  if (count <= 0) return "";
  const buffer = mem.alloc((count + 1) * 2);
  try {
    const written = m.FPDFText_GetBoundedText(textPage, rect.left, rect.top, rect.right, rect.bottom, buffer, count + 1);
    return m.pdfium.UTF16ToString(buffer, written * 2);
  } finally {
    mem.free(buffer);
  }
}

const touches = (a: Omit<PageRect, "page">, b: Omit<PageRect, "page">) => a.left < b.right && a.right > b.left && a.bottom < b.top && a.top > b.bottom;

export type PdfiumPass = { bytes: Uint8Array; rects: PageRect[]; removedText: string[]; annotationsRemoved: number; attachmentsRemoved: number; pages: number };

/** The marks applied: the content under them gone, a black box in its place. */
export function applyMarks(m: WrappedPdfiumModule, bytes: Uint8Array, marks: readonly RedactionMark[]): PdfiumPass {
  const mem = memory(m);
  const { doc, close } = openDocument(m, mem, bytes);
  try {
    const pages = m.FPDF_GetPageCount(doc);
    const rects: PageRect[] = [];
    const removedText: string[] = [];
    let annotationsRemoved = 0;
    const byPage = new Map<number, RedactionMark[]>();
    for (const mark of marks) {
      if (mark.page < 0 || mark.page >= pages) throw new EngineRefusal(`A mark is on page ${mark.page + 1}, but the document has ${pages} page${pages === 1 ? "" : "s"}.`);
      byPage.set(mark.page, [...(byPage.get(mark.page) ?? []), mark]);
    }
    const rectPointer = mem.alloc(16);
    try {
      for (const [pageIndex, pageMarks] of byPage) {
        const page = m.FPDF_LoadPage(doc, pageIndex);
        if (!page) throw new EngineRefusal(`Page ${pageIndex + 1} could not be read, so it cannot be redacted.`);
        try {
          const pageRects = pageMarks.map((mark) => pageRectOf(m, mem, page, pageIndex, mark));
          const textPage = m.FPDFText_LoadPage(page);
          if (textPage) {
            for (const rect of pageRects) {
              const text = boundedText(m, mem, textPage, rect).trim();
              if (text) removedText.push(text);
            }
            m.FPDFText_ClosePage(textPage);
          }
          for (const rect of pageRects) {
            // FS_RECTF: left, top, right, bottom.
            mem.f32().set([rect.left, rect.top, rect.right, rect.bottom], rectPointer / 4);
            if (!m.EPDFText_RedactInRect(page, rectPointer, true, true)) throw new EngineRefusal(`The content under a mark on page ${pageIndex + 1} could not be removed.`);
          }
          for (let index = m.FPDFPage_GetAnnotCount(page) - 1; index >= 0; index -= 1) {
            const annotation = m.FPDFPage_GetAnnot(page, index);
            if (!annotation) continue;
            const found = m.FPDFAnnot_GetRect(annotation, rectPointer);
            const [left, top, right, bottom] = mem.f32().slice(rectPointer / 4, rectPointer / 4 + 4);
            m.FPDFPage_CloseAnnot(annotation);
            const box = { left: Math.min(left!, right!), right: Math.max(left!, right!), bottom: Math.min(top!, bottom!), top: Math.max(top!, bottom!) };
            if (found && pageRects.some((rect) => touches(box, rect)) && m.FPDFPage_RemoveAnnot(page, index)) annotationsRemoved += 1;
          }
          if (!m.FPDFPage_GenerateContent(page)) throw new EngineRefusal(`Page ${pageIndex + 1} could not be written again after redaction.`);
          rects.push(...pageRects);
        } finally {
          m.FPDF_ClosePage(page);
        }
      }
    } finally {
      mem.free(rectPointer);
    }
    let attachmentsRemoved = 0;
    for (let index = m.FPDFDoc_GetAttachmentCount(doc) - 1; index >= 0; index -= 1) if (m.FPDFDoc_DeleteAttachment(doc, index)) attachmentsRemoved += 1;
    return { bytes: saveWhole(m, mem, doc), rects, removedText, annotationsRemoved, attachmentsRemoved, pages };
  } finally {
    close();
  }
}

/** Resolution of a flattened page: 150 dots per inch, sharp enough to read and print. */
const FLATTEN_DPI = 150;
const FPDF_ANNOT = 0x01;
const FPDF_PRINTING = 0x800;
const OPAQUE_WHITE = 0xffffffff;
const OPAQUE_BLACK = 0xff000000;

/**
 * The fallback when a page's text cannot be taken apart (issue 39): the page as it looks, marks
 * painted black into the picture, replaces everything on it. Its text layer, its annotations and
 * every object of its content are gone; what is left is one image the size of the shown page.
 */
export function flattenPages(m: WrappedPdfiumModule, bytes: Uint8Array, marks: readonly RedactionMark[]): { bytes: Uint8Array; pages: number[] } {
  const mem = memory(m);
  const { doc, close } = openDocument(m, mem, bytes);
  try {
    const count = m.FPDF_GetPageCount(doc);
    const pages = [...new Set(marks.map((mark) => mark.page))].sort((a, b) => a - b);
    for (const index of pages) {
      if (index < 0 || index >= count) throw new EngineRefusal(`A mark is on page ${index + 1}, but the document has ${count} page${count === 1 ? "" : "s"}.`);
      const page = m.FPDF_LoadPage(doc, index);
      if (!page) throw new EngineRefusal(`Page ${index + 1} could not be read, so it cannot be flattened.`);
      try {
        // The shown size (crop box, turned by /Rotate), in points and in pixels.
        const width = m.FPDF_GetPageWidthF(page);
        const height = m.FPDF_GetPageHeightF(page);
        const pixelsWide = Math.max(1, Math.round((width / 72) * FLATTEN_DPI));
        const pixelsHigh = Math.max(1, Math.round((height / 72) * FLATTEN_DPI));
        const bitmap = m.FPDFBitmap_Create(pixelsWide, pixelsHigh, 0);
        if (!bitmap) throw new EngineRefusal(`Page ${index + 1} is too large to flatten.`);
        try {
          m.FPDFBitmap_FillRect(bitmap, 0, 0, pixelsWide, pixelsHigh, OPAQUE_WHITE);
          m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, pixelsWide, pixelsHigh, 0, FPDF_ANNOT | FPDF_PRINTING);
          for (const mark of marks.filter((one) => one.page === index)) {
            const left = Math.floor(mark.x * pixelsWide);
            const top = Math.floor(mark.y * pixelsHigh);
            m.FPDFBitmap_FillRect(bitmap, left, top, Math.ceil((mark.x + mark.w) * pixelsWide) - left, Math.ceil((mark.y + mark.h) * pixelsHigh) - top, OPAQUE_BLACK);
          }
          for (let object = m.FPDFPage_CountObjects(page) - 1; object >= 0; object -= 1) {
            const found = m.FPDFPage_GetObject(page, object);
            if (found && m.FPDFPage_RemoveObject(page, found)) m.FPDFPageObj_Destroy(found);
          }
          for (let annotation = m.FPDFPage_GetAnnotCount(page) - 1; annotation >= 0; annotation -= 1) m.FPDFPage_RemoveAnnot(page, annotation);
          m.FPDFPage_SetRotation(page, 0);
          m.FPDFPage_SetMediaBox(page, 0, 0, width, height);
          m.FPDFPage_SetCropBox(page, 0, 0, width, height);
          const image = m.FPDFPageObj_NewImageObj(doc);
          const pagePointer = mem.alloc(4);
          try {
            new Uint32Array(mem.u8().buffer, pagePointer, 1)[0] = page;
            if (!image || !m.FPDFImageObj_SetBitmap(pagePointer, 1, image, bitmap)) throw new EngineRefusal(`Page ${index + 1} could not be flattened.`);
          } finally {
            mem.free(pagePointer);
          }
          m.FPDFImageObj_SetMatrix(image, width, 0, 0, height, 0, 0);
          m.FPDFPage_InsertObject(page, image);
          if (!m.FPDFPage_GenerateContent(page)) throw new EngineRefusal(`Page ${index + 1} could not be written again after flattening.`);
        } finally {
          m.FPDFBitmap_Destroy(bitmap);
        }
      } finally {
        m.FPDF_ClosePage(page);
      }
    }
    return { bytes: saveWhole(m, mem, doc), pages };
  } finally {
    close();
  }
}

const INFO_KEYS = ["Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"];

/** A page's whole text layer, as PDFium reads it. */
function pageText(m: WrappedPdfiumModule, mem: Memory, doc: number, index: number): string {
  const page = m.FPDF_LoadPage(doc, index);
  if (!page) return "";
  try {
    const textPage = m.FPDFText_LoadPage(page);
    if (!textPage) return "";
    try {
      const count = m.FPDFText_CountChars(textPage);
      if (count <= 0) return "";
      const buffer = mem.alloc((count + 1) * 2);
      try {
        const written = m.FPDFText_GetText(textPage, 0, count, buffer);
        return m.pdfium.UTF16ToString(buffer, Math.max(0, written - 1) * 2);
      } finally {
        mem.free(buffer);
      }
    } finally {
      m.FPDFText_ClosePage(textPage);
    }
  } finally {
    m.FPDF_ClosePage(page);
  }
}

/**
 * The last pass: the Info metadata emptied and the file written whole again (what an earlier pass
 * left unreferenced is dropped); with the text left on every page, for the app's check.
 */
export function rewriteClean(m: WrappedPdfiumModule, bytes: Uint8Array): { bytes: Uint8Array; pageTexts: string[] } {
  const mem = memory(m);
  const { doc, close } = openDocument(m, mem, bytes);
  try {
    const empty = mem.alloc(2);
    mem.u8().set([0, 0], empty);
    try {
      for (const key of INFO_KEYS) if (m.EPDF_HasMetaText(doc, key)) m.EPDF_SetMetaText(doc, key, empty);
      const custom = m.EPDF_GetMetaKeyCount(doc, true);
      for (let index = 0; index < custom; index += 1) {
        const size = m.EPDF_GetMetaKeyName(doc, index, true, 0, 0);
        if (size <= 0) continue;
        const name = mem.alloc(size);
        try {
          m.EPDF_GetMetaKeyName(doc, index, true, name, size);
          m.EPDF_SetMetaText(doc, m.pdfium.UTF8ToString(name), empty);
        } finally {
          mem.free(name);
        }
      }
    } finally {
      mem.free(empty);
    }
    const pageTexts = Array.from({ length: m.FPDF_GetPageCount(doc) }, (_, index) => pageText(m, mem, doc, index));
    return { bytes: saveWhole(m, mem, doc), pageTexts };
  } finally {
    close();
  }
}
