import { Link } from "react-router";
import { getShowcaseExamples } from "~/features/guide/welcome.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/showcase";

export const meta: Route.MetaFunction = () => [
  ...titleMeta("Showcase"),
  { name: "description", content: "What Strongroom does, with live examples: a data room's shared teaser and a page that receives files." },
];

/** /showcase (spec §2 "Showcase"): for visitors deciding whether to sign up, with the demo's live examples when they exist. */
export async function loader({ context }: Route.LoaderArgs) {
  return { examples: await getShowcaseExamples(serviceContextFor(context)) };
}

const capabilities = [
  {
    title: "Data rooms",
    body: "A room per deal or project: folders, files, members and guests. Permissions person by person, a watermark with the viewer's name on every page, view-only documents, two-factor sign-in, network limits, and an audit log nobody can alter.",
  },
  {
    title: "Share links",
    body: "Share a file, a folder or a room's documents with expiry, view limits, a password, a verified e-mail, an agreement to accept, and page-by-page analytics of who read what.",
  },
  {
    title: "Receive pages",
    body: "A public page where clients and candidates send you files and whole folders, no account needed, straight into the folder you chose, with your rules on types, sizes and deadlines.",
  },
  {
    title: "One-time secrets",
    body: "Passwords and files sealed in your browser, readable once by the person with the link. Or ask someone for a secret and read their answer alone.",
  },
  {
    title: "Your files, organised",
    body: "Folders with colours and icons, previews of PDFs, images, video and text, favorites, tags, duplicates, templates, and a 30-day trash.",
  },
];

export default function ShowcasePage({ loaderData }: Route.ComponentProps) {
  const { examples } = loaderData;
  const hasExamples = examples.shareLink !== null || examples.receivePage !== null;
  const action = "inline-flex items-center rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700";
  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">See what Strongroom does</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          Secure data rooms, share links you can measure, pages that collect files, and secrets that open once, in one place, fast wherever your people are.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/register" className={action}>
            Create your account
          </Link>
          <Link to="/login" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800">
            Sign in
          </Link>
        </div>
      </section>

      {hasExamples ? (
        <section aria-labelledby="live-heading" className="space-y-4">
          <h2 id="live-heading" className="text-xl font-semibold text-slate-900">
            Try it live
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2">
            {examples.shareLink ? (
              <li className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="showcase-example">
                <h3 className="font-semibold text-slate-900">A data room's shared teaser</h3>
                <p className="mt-2 text-sm text-slate-700">Open Project Falcon's teaser the way an investor would: leave your e-mail address, then read the document in the secure viewer.</p>
                <a href={`/s/${examples.shareLink}`} className="mt-3 inline-block font-medium text-brand-700 underline">
                  Open the teaser
                </a>
              </li>
            ) : null}
            {examples.receivePage ? (
              <li className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="showcase-example">
                <h3 className="font-semibold text-slate-900">A page that receives files</h3>
                <p className="mt-2 text-sm text-slate-700">Send files and folders into Project Falcon's Financials folder, as a seller's advisor would, without an account.</p>
                <a href={`/r/${examples.receivePage}`} className="mt-3 inline-block font-medium text-brand-700 underline">
                  Send files
                </a>
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="capabilities-heading" className="space-y-4">
        <h2 id="capabilities-heading" className="text-xl font-semibold text-slate-900">
          What you get
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {capabilities.map((capability) => (
            <li key={capability.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="font-semibold text-slate-900">{capability.title}</h3>
              <p className="mt-2 text-sm text-slate-700">{capability.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
