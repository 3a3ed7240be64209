import { data } from "react-router";
import { SubmissionAnswers } from "~/features/forms/components/shared-submission";
import { openSharedSubmission } from "~/features/forms/form-shares.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/shared";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...titleMeta(loaderData?.opening.state === "open" ? `Submission to ${loaderData.opening.formTitle}` : loaderData?.opening.state === "expired" ? "Link expired" : "Link not found"),
  { name: "robots", content: "noindex, nofollow" },
];

// The address is the key: never sent on as a referrer, never cached, never indexed.
export const headers = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow" });

/** /submissions/shared/{token} (spec §2 "shared submission view"): one submission, for whoever has the link. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const opening = await runLoader(() => openSharedSubmission(serviceContextFor(context), params.token));
  return data({ opening }, { status: opening.state === "missing" ? 404 : opening.state === "expired" ? 410 : 200 });
}

export default function SharedSubmissionPage({ loaderData }: Route.ComponentProps) {
  const { opening } = loaderData;
  if (opening.state !== "open") {
    return (
      <div className="mx-auto max-w-2xl space-y-2" data-testid="shared-submission-ended">
        <h1 className="text-2xl font-semibold text-slate-900">{opening.state === "expired" ? "This link has expired" : "Link not found"}</h1>
        <p className="text-sm text-slate-700">{opening.state === "expired" ? "This link to a form submission has expired or was withdrawn. Ask the person who shared it for a new one." : "This link does not exist. Check the address you were given."}</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Submission to “{opening.formTitle}”</h1>
        <p className="text-sm text-slate-600">
          Received {opening.submission.createdAt.slice(0, 16).replace("T", " ")} UTC. This link works until {opening.expiresAt.slice(0, 16).replace("T", " ")} UTC; each opening is recorded.
        </p>
      </header>
      <SubmissionAnswers submission={opening.submission} />
    </div>
  );
}
