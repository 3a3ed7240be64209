import { receivePageLogo } from "~/features/receive/receive-public.server";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/logo";

/** /r/{address}/logo: a receive page's logo, an image recognised by its bytes, served as nothing else. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const logo = await receivePageLogo(serviceContextFor(context), params.address);
  if (!logo) return new Response("This page has no logo.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(logo.body, {
    headers: {
      "Content-Type": logo.type,
      "Content-Length": String(logo.size),
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Referrer-Policy": "same-origin",
    },
  });
}
