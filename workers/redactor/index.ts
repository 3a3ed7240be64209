import { init, type WrappedPdfiumModule } from "@embedpdf/pdfium";
import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm";
import { WorkerEntrypoint } from "cloudflare:workers";
import type { RedactionEngineInput, RedactionEngineResult } from "~/features/redaction/redaction-types";
import { redactDocument } from "./redact-document";

/**
 * The redaction engine (issue 39, ADR 032): a second Worker that holds PDFium (2.15 MB gzip of
 * WebAssembly, which the main Worker cannot carry within G6) and answers the main Worker's
 * service binding `REDACTOR` over RPC. It keeps nothing: bytes in, bytes and a report out.
 */

let engine: Promise<WrappedPdfiumModule> | null = null;

function pdfium(): Promise<WrappedPdfiumModule> {
  engine ??= init({
    // workerd compiles the module at upload; Emscripten only instantiates it.
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      const instance = new WebAssembly.Instance(pdfiumWasm, imports);
      receive(instance, pdfiumWasm);
      return instance.exports;
    },
  }).then((module) => {
    module.PDFiumExt_Init();
    return module;
  });
  return engine;
}

export class Redactor extends WorkerEntrypoint {
  async redact(input: RedactionEngineInput): Promise<RedactionEngineResult> {
    return redactDocument(await pdfium(), input);
  }
}

export default {
  fetch() {
    return new Response("The redaction engine answers the app's service binding only.", { status: 404 });
  },
} satisfies ExportedHandler;
