import { data } from "react-router";
import { SubmissionAnswers } from "~/features/forms/components/shared-submission";
import { openSharedSubmission } from "~/features/forms/form-shares.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { FRAME_ANCESTORS_HEADER } from "~/lib/frame-ancestors";
import type { Route } from "./+types/embed";

export const meta: Route.MetaFunction = ({ loaderData }) => [...titleMeta(loaderData?.opening.state === "open" ? `Submission to ${loaderData.opening.formTitle}` : "Embedded submission view"), { name: "robots", content: "noindex, nofollow" }];

// No frame of ours around it and no cookie banner: it sits in a frame on the form owner's site.
export const handle = { bare: true };

/** Framed only by the sites the form's owner listed (frame-ancestors); by nobody when the list is empty. */
export const headers = ({ loaderHeaders }: Route.HeadersArgs) => {
  const origins = loaderHeaders.get(FRAME_ANCESTORS_HEADER);
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow", ...(origins ? { [FRAME_ANCESTORS_HEADER]: origins } : {}) };
};

/** /submissions/embed/{token} (spec §2 "Embedded submission view"). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const opening = await runLoader(() => openSharedSubmission(serviceContextFor(context), params.token, { embedded: true }));
  const origins = opening.state === "open" ? opening.embedOrigins.join(" ") : "";
  return data({ opening }, { status: opening.state === "missing" ? 404 : opening.state === "expired" ? 410 : 200, headers: origins ? { [FRAME_ANCESTORS_HEADER]: origins } : {} });
}

export default function EmbeddedSubmissionPage({ loaderData }: Route.ComponentProps) {
  const { opening } = loaderData;
  return (
    <main className="space-y-3 p-3">
      {opening.state === "open" ? (
        <>
          <h1 className="text-lg font-semibold text-slate-900">{opening.formTitle}</h1>
          <SubmissionAnswers submission={opening.submission} />
        </>
      ) : (
        <p className="text-sm text-slate-700" data-testid="shared-submission-ended">
          {opening.state === "expired" ? "This link has expired." : "This link does not exist."}
        </p>
      )}
    </main>
  );
}
