import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { listReleases } from "~/features/guide/guide.server";
import { markReleasesSeen } from "~/features/guide/welcome.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/whats-new";

export const meta: Route.MetaFunction = () => titleMeta("What's new");

/** /whats-new (spec §2 "What's new"): release notes from app/content/whats-new, newest first. Opening it clears the sidebar's dot. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const [releases] = await Promise.all([listReleases(), markReleasesSeen(serviceContextFor(context), user.id, user.whatsNewSeen)]);
  return { releases };
}

export default function WhatsNewPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">What's new</h1>
        <p className="mt-1 text-slate-700">What changed in Strongroom, newest first.</p>
      </div>
      {loaderData.releases.map((release) => (
        <article key={release.id} aria-labelledby={`release-${release.id}`} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="release">
          <p className="text-sm text-slate-600">{release.date}</p>
          <h2 id={`release-${release.id}`} className="mt-1 text-lg font-semibold text-slate-900">
            {release.title}
          </h2>
          {/* Our own Markdown, from the repository: never a member's text. */}
          <div className="markdown-content mt-3" dangerouslySetInnerHTML={{ __html: release.html }} />
        </article>
      ))}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
