import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { NonceProvider } from "~/lib/nonce";

/**
 * The server renders every <link>/<script> with this request's CSP nonce. Browsers hide a
 * script's nonce attribute but keep the property, so the client reads it back and renders the
 * same value: hydration then matches.
 */
function readDocumentNonce(): string {
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <NonceProvider value={readDocumentNonce()}>
        <HydratedRouter />
      </NonceProvider>
    </StrictMode>,
  );
});
