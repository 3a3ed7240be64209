import { ErrorPage } from "~/components/error-page";
import { UpLink } from "~/components/up-link";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getHelpArticle } from "~/features/guide/guide.server";
import { runLoader } from "~/lib/action-result.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/help-article";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `${loaderData.article.title} - Help` : "Help");

/** /help/{slug}: one help article. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireMember(context, request);
  return runLoader(async () => ({ article: await getHelpArticle(params.slug) }));
}

export default function HelpArticlePage({ loaderData }: Route.ComponentProps) {
  const { article } = loaderData;
  return (
    <article className="mx-auto max-w-3xl space-y-4">
      <UpLink to="/help">Help</UpLink>
      <h1 className="text-2xl font-semibold text-slate-900">{article.title}</h1>
      <p className="text-slate-700">{article.summary}</p>
      {/* Our own Markdown, from the repository: never a member's text. */}
      <div className="markdown-content rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" dangerouslySetInnerHTML={{ __html: article.html }} />
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
