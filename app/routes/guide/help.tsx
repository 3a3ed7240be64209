import { Form, Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { requireMember } from "~/features/auth/auth-guard.server";
import { listHelpArticles } from "~/features/guide/guide.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/help";

export const meta: Route.MetaFunction = () => titleMeta("Help");

/** /help (spec §2 "Help"): the articles shipped with the app, searched by ?q=. */
export function loader({ context, request }: Route.LoaderArgs) {
  requireMember(context, request);
  return listHelpArticles(new URL(request.url).searchParams.get("q"));
}

export default function HelpPage({ loaderData }: Route.ComponentProps) {
  const { query, articles } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Help</h1>
        <p className="mt-1 text-slate-700">How each part of Strongroom works, its limits and its security.</p>
      </div>
      <Form method="get" role="search" aria-label="Search the help" className="flex items-end gap-2">
        <div className="flex-1">
          <Input label="Search the help" name="q" type="search" defaultValue={query} placeholder="For example: watermark, trash, password" />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>
      {articles.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700">
          No article mentions “{query}”. Try another word, or{" "}
          <Link to="/help" className="font-medium text-brand-700 underline">
            see every article
          </Link>
          .
        </p>
      ) : (
        <ul className="space-y-3" aria-label={query ? `Articles about ${query}` : "Help articles"}>
          {articles.map((article) => (
            <li key={article.slug} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="help-article">
              <Link to={`/help/${article.slug}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                {article.title}
              </Link>
              <p className="text-sm text-slate-700">{article.snippet ?? article.summary}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
