import { Form, Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { ErrorPage } from "~/components/error-page";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { Highlighted } from "~/features/search/components/highlighted";
import { KIND_WORDS } from "~/features/search/components/search-combobox";
import { SEARCH_DATE_LABELS, SEARCH_DATES, SEARCH_KIND_LABELS, SEARCH_KINDS, SEARCH_OWNER_LABELS, SEARCH_OWNERS, SEARCH_PAGE_SIZE, SEARCH_QUERY_MAX } from "~/features/search/search.constants";
import { searchWorkspace } from "~/features/search/search.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = () => titleMeta("Search");

/**
 * /search (issue 36): everything the member may open, by name and by content, with filters by
 * kind, place, owner and date (all in the address, so a search can be bookmarked and shared with
 * oneself). A filter value that makes no sense is said in words, never a failed page.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const filters = { q: params.q ?? "", kind: params.kind ?? "", place: params.place ?? "", owner: params.owner ?? "anyone", date: params.date ?? "any" };
  try {
    const results = await searchWorkspace(serviceContextFor(context), user.id, { q: filters.q, kind: filters.kind, place: filters.place, owner: filters.owner, date: filters.date });
    return { filters, hits: results.hits, places: results.places, error: null };
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_ERROR") return { filters, hits: [], places: [], error: error.message };
    throw error;
  }
}

/** One filter of the GET form: a labelled native select (works without JavaScript). */
function FilterSelect({ label, name, value, width, options }: { label: string; name: string; value: string; width: string; options: { value: string; label: string }[] }) {
  return (
    <label className={`block ${width} text-sm font-medium text-slate-900`}>
      {label}
      <select name={name} defaultValue={value} className={nativeSelectClassName}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { filters, hits, places, error } = loaderData;
  const query = filters.q.trim();
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Search</h1>
        <p className="mt-1 text-slate-700">Files and folders by name and by what is written in them, data rooms, share links, receive pages and secrets.</p>
      </div>
      <Form method="get" role="search" aria-label="Search everything" className="space-y-3">
        <div className="flex items-end gap-2">
          <label className="block flex-1 text-sm font-medium text-slate-900">
            Search for
            <input type="search" name="q" defaultValue={filters.q} maxLength={SEARCH_QUERY_MAX} placeholder="For example: invoice 2026, term sheet" className={nativeSelectClassName} />
          </label>
          <Button type="submit">Search</Button>
        </div>
        <div className="flex flex-wrap gap-3">
          <FilterSelect label="Kind" name="kind" value={filters.kind} width="w-44" options={[{ value: "", label: "Everything" }, ...SEARCH_KINDS.map((kind) => ({ value: kind, label: SEARCH_KIND_LABELS[kind] }))]} />
          <FilterSelect label="Place" name="place" value={filters.place} width="w-56" options={[{ value: "", label: "Everywhere" }, ...places.map((place) => ({ value: place.id, label: place.name }))]} />
          <FilterSelect label="Owner" name="owner" value={filters.owner} width="w-36" options={SEARCH_OWNERS.map((owner) => ({ value: owner, label: SEARCH_OWNER_LABELS[owner] }))} />
          <FilterSelect label="Changed" name="date" value={filters.date} width="w-40" options={SEARCH_DATES.map((date) => ({ value: date, label: SEARCH_DATE_LABELS[date] }))} />
        </div>
      </Form>

      {error ? <Alert variant="error">{error}</Alert> : null}
      {!error && !query ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700">
          Type a word to search. The text inside PDFs, Word documents, text, Markdown and CSV files is searched too; press Ctrl K (⌘ K on a Mac) on any page to search from there.
        </p>
      ) : null}
      {!error && query && hits.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700" role="status">
          Nothing you can open matches “{query}”. Try fewer or shorter words, or{" "}
          <Link to={`/search?${new URLSearchParams({ q: query })}`} className="font-medium text-brand-700 underline">
            search everywhere
          </Link>
          .
        </p>
      ) : null}
      {hits.length > 0 ? (
        <section aria-labelledby="search-results-heading" className="space-y-3">
          <h2 id="search-results-heading" className="text-sm font-medium text-slate-700">
            {hits.length === 1 ? "1 result" : `${hits.length} results`} for “{query}”
          </h2>
          <ul className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            {hits.map((hit) => (
              <li key={`${hit.kind}:${hit.id}`} className="space-y-1 p-4" data-testid="search-result" data-kind={hit.kind}>
                <Link to={hit.href} className="font-semibold text-brand-700 underline-offset-2 hover:underline" reloadDocument={hit.href.startsWith("/dataroom/")}>
                  {hit.title || "(untitled)"}
                </Link>
                <p className="text-xs text-slate-600">
                  {[KIND_WORDS[hit.kind], hit.place, hit.detail, hit.updatedAt ? `changed ${dateFormat.format(new Date(hit.updatedAt))}` : null].filter(Boolean).join(" · ")}
                </p>
                {hit.snippet ? (
                  <p className="text-sm text-slate-700">
                    <Highlighted text={hit.snippet} />
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
          {hits.filter((hit) => hit.kind === "file" || hit.kind === "folder").length >= SEARCH_PAGE_SIZE ? (
            <p className="text-sm text-slate-700">
              These are the first {SEARCH_PAGE_SIZE} files and folders: names first, then contents, newest first. Add a word, or choose a place, owner or date, to narrow them.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
