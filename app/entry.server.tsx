import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { describeError } from "~/lib/log.server";
import { NonceProvider } from "~/lib/nonce";
import { requestContext } from "~/lib/request-context.server";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { cspNonce, logger } = loadContext.get(requestContext);
  let statusCode = responseStatusCode;
  const body = await renderToReadableStream(
    <NonceProvider value={cspNonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={cspNonce} />
    </NonceProvider>,
    {
      nonce: cspNonce,
      // A Suspense boundary whose content is ready is written in place, however large: by default
      // React moves content over ~12 KB out of place, to be put back by a script, so a page without
      // JavaScript (a public form, ADR 029) would show only the fallback. Boundaries still waiting
      // for data stream as before.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      signal: AbortSignal.timeout(streamTimeout + 1_000),
      onError(error: unknown) {
        statusCode = 500;
        logger.error("render error", describeError(error));
      },
    },
  );

  // Bots and crawlers get the whole document at once; browsers get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: statusCode });
}
