import { Link, redirect } from "react-router";
import { requestContext } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => titleMeta("Home");

/**
 * `/`: the public home for visitors; a signed-in member's home is their dashboard (issue 36). A
 * redirect, not a second page here, so the visitors' home loads none of the workspace (G5, G13).
 */
export function loader({ context }: Route.LoaderArgs) {
  if (context.get(requestContext).actor) throw redirect("/dashboard");
  return null;
}

const pillars = [
  { title: "Data rooms", body: "Folders, files, members and guests with permissions you can read at a glance, and a 30-day trash." },
  {
    title: "Secure sharing",
    body: "Share links with expiry, view limits and passwords; a viewer that never hands out the original unless you allow it.",
  },
  { title: "Collect and sign", body: "Public receive pages, forms and e-signatures that land straight in the right folder." },
  { title: "Fast everywhere", body: "Runs at the edge, close to your members and visitors, wherever they are." },
];

export default function Home() {
  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Documents you can trust others with.</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          Strongroom keeps your data rooms, files, forms and signatures in one place, and shares them securely with the
          people who need them.
        </p>
        <div className="mt-6 flex gap-3">
          <Link to="/showcase" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            See it in action
          </Link>
          <Link to="/privacy-policy" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium">
            How we handle your data
          </Link>
        </div>
      </section>
      <section aria-labelledby="pillars-heading">
        <h2 id="pillars-heading" className="sr-only">
          What Strongroom does
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {pillars.map((pillar) => (
            <li key={pillar.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="font-semibold text-slate-900">{pillar.title}</h3>
              <p className="mt-2 text-sm text-slate-700">{pillar.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
