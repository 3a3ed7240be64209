import { AppError } from "~/lib/errors";
import { fileId, parseContent, type ContentFile } from "./content";

const helpSources = import.meta.glob<string>("/app/content/help/*.md", { query: "?raw", import: "default", eager: true });
const releaseSources = import.meta.glob<string>("/app/content/whats-new/*.md", { query: "?raw", import: "default", eager: true });

const load = (sources: Record<string, string>): ContentFile[] => Object.entries(sources).map(([path, source]) => parseContent(fileId(path), source));

export type HelpArticleSummary = { slug: string; title: string; summary: string; snippet: string | null };
export type HelpArticle = { slug: string; title: string; summary: string; html: string };
export type Release = { id: string; title: string; date: string; html: string };

const articles = load(helpSources).sort((a, b) => Number(a.meta.order ?? 99) - Number(b.meta.order ?? 99));
/** Newest first: the file names start with the date (and a sequence for one day). */
const releases = load(releaseSources).sort((a, b) => b.id.localeCompare(a.id));

/** The newest release note's id: a member who has not opened What's new since it appeared sees a dot. */
export const LATEST_RELEASE_ID: string | null = releases[0]?.id ?? null;

export function hasUnreadReleases(seenId: string | null | undefined): boolean {
  return LATEST_RELEASE_ID !== null && seenId !== LATEST_RELEASE_ID;
}

async function render(markdown: string): Promise<string> {
  // Loaded when a page needs it: most requests never render Markdown (G6 start-up).
  const { marked } = await import("marked");
  return marked.parse(markdown, { async: true, gfm: true });
}

const plain = (markdown: string) => markdown.replace(/[#*_`>[\]()]/g, "").replace(/\s+/g, " ").trim();

/** Words of the query, lower-cased; an article matches when its title, summary or text holds every one. */
function wordsOf(query: string): string[] {
  return query.toLowerCase().split(/\s+/).map((word) => word.trim()).filter((word) => word.length > 0).slice(0, 8);
}

function snippetOf(text: string, word: string): string {
  const index = text.toLowerCase().indexOf(word);
  if (index < 0) return text.slice(0, 160);
  const start = Math.max(0, index - 60);
  return `${start > 0 ? "…" : ""}${text.slice(start, index + 100).trim()}…`;
}

/** /help: every article, or those matching `q` with a line of text around the first word found. */
export function listHelpArticles(rawQuery: unknown): { query: string; articles: HelpArticleSummary[] } {
  const query = typeof rawQuery === "string" ? rawQuery.trim().slice(0, 100) : "";
  const words = wordsOf(query);
  const found = articles.flatMap((article): HelpArticleSummary[] => {
    const title = article.meta.title ?? article.id;
    const summary = article.meta.summary ?? "";
    if (words.length === 0) return [{ slug: article.id, title, summary, snippet: null }];
    const text = plain(article.body);
    const haystack = `${title} ${summary} ${text}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) return [];
    return [{ slug: article.id, title, summary, snippet: snippetOf(text, words[0]!) }];
  });
  return { query, articles: found };
}

export async function getHelpArticle(rawSlug: unknown): Promise<HelpArticle> {
  const article = articles.find((candidate) => candidate.id === rawSlug);
  if (!article) throw new AppError("NOT_FOUND", "There is no help article at this address. Search the help or pick an article from the list.");
  return { slug: article.id, title: article.meta.title ?? article.id, summary: article.meta.summary ?? "", html: await render(article.body) };
}

export async function listReleases(): Promise<Release[]> {
  return Promise.all(releases.map(async (release) => ({ id: release.id, title: release.meta.title ?? release.id, date: release.meta.date ?? release.id.slice(0, 10), html: await render(release.body) })));
}
