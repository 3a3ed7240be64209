import { exportPersonalData } from "~/features/personal-data/export.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { requestContext } from "~/lib/request-context.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/data-export";

/**
 * The member's data as a zip download (resource route: no component). The link is followed as
 * a document request, so a refusal (too many exports) goes back to the page with a toast
 * instead of showing a bare error body.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  try {
    const { stream, fileName } = await exportPersonalData(authCallFor(context, request), member);
    return new Response(stream, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const { env, isSecure } = context.get(requestContext);
    return redirectWithToast(
      "/profile/data",
      { type: "error", message: error.message },
      { secret: readConfig(env).SESSION_SECRET, isSecure, headers: error.retryAfterHeaders() },
    );
  }
}
