import { Form, Link, useSearchParams } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { HelpLink } from "~/features/guide/components/help-link";
import { listDocuments, signaturesAccess } from "~/features/signatures/envelopes.server";
import { ENVELOPE_STATUS_LABELS, RECIPIENT_STATUS_LABELS } from "~/features/signatures/signatures.constants";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";
import { STATUS_VARIANTS } from "~/features/signatures/components/status-variants";

export const meta: Route.MetaFunction = () => titleMeta("Signatures");

const VIEWS = [
  { id: "waiting_for_me", label: "Waiting for me" },
  { id: "waiting_for_others", label: "Waiting for others" },
  { id: "completed", label: "Completed" },
  { id: "declined", label: "Declined" },
  { id: "expired", label: "Expired or voided" },
  { id: "drafts", label: "Drafts" },
  { id: "all", label: "All" },
] as const;

/**
 * /signatures (spec §2 "Signatures: document list") and a room's /dataroom/{id}/signatures: the
 * envelopes in views (waiting for me, for others, completed, declined, expired, drafts), searched
 * by title, 25 at a time (keyset).
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const dataroomId = (params as { id?: string }).id ?? null;
  return runLoader(async () => {
    if (!dataroomId) await signaturesAccess(ctx, user.id);
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return { page: await listDocuments(ctx, user.id, { view: dataroomId ? "all" : "waiting_for_me", ...query }, dataroomId), dataroomId };
  });
}

const at = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

export default function SignaturesPage({ loaderData }: Route.ComponentProps) {
  const { page, dataroomId } = loaderData;
  const [params] = useSearchParams();
  const base = dataroomId ? `/dataroom/${dataroomId}/signatures` : "/signatures";
  const withView = (view: string) => `${base}?view=${view}${page.q ? `&q=${encodeURIComponent(page.q)}` : ""}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          {dataroomId ? <h2 className="text-xl font-semibold text-slate-900">Signatures</h2> : <h1 className="text-2xl font-semibold text-slate-900">Signatures</h1>}
          <HelpLink article="signatures">How e-signatures work</HelpLink>
          <p className="text-sm text-slate-700">Documents sent for signature{dataroomId ? " from this data room" : " by you or to you"}. Each is sealed with a certificate of completion once everyone has signed.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`${base}/create`} className={buttonClassName({})}>
            Send for signature
          </Link>
          {dataroomId ? null : (
            <Link to="/signatures/templates" className={buttonClassName({ variant: "secondary" })}>
              Signature templates
            </Link>
          )}
          <Link to="/signatures/verify" className={buttonClassName({ variant: "secondary" })}>
            Verify a PDF
          </Link>
        </div>
      </div>
      <nav aria-label="Views" className="flex flex-wrap gap-1">
        {VIEWS.map((view) => (
          <Link key={view.id} to={withView(view.id)} aria-current={page.view === view.id ? "page" : undefined} className="rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-800 aria-[current=page]:border-slate-900 aria-[current=page]:bg-slate-900 aria-[current=page]:text-white">
            {view.label}
          </Link>
        ))}
      </nav>
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <input type="hidden" name="view" value={page.view} />
        <label className="block text-sm font-medium text-slate-900">
          Search by title
          <input name="q" defaultValue={params.get("q") ?? ""} maxLength={200} className="mt-1 block w-72 max-w-full rounded-md border border-slate-400 px-3 py-2 text-sm" />
        </label>
        <button type="submit" className={buttonClassName({ variant: "secondary" })}>
          Search
        </button>
      </Form>
      {page.envelopes.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">Nothing here{page.q ? ` matches “${page.q}”` : ""}.</p>
      ) : (
        <Table caption="Documents sent for signature, most recently changed first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Document</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Recipients</TableHeaderCell>
              <TableHeaderCell>Changed</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {page.envelopes.map((envelope) => (
              <TableRow key={envelope.id}>
                <TableCell>
                  <Link to={`/signatures/${envelope.id}`} className="font-medium text-brand-700 underline">
                    {envelope.title}
                  </Link>
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS_VARIANTS[envelope.status]}>{ENVELOPE_STATUS_LABELS[envelope.status]}</Badge>
                </TableCell>
                <TableCell>
                  {envelope.recipients.map((recipient) => `${recipient.name} (${RECIPIENT_STATUS_LABELS[recipient.status as keyof typeof RECIPIENT_STATUS_LABELS] ?? recipient.status})`).join(", ")}
                </TableCell>
                <TableCell>{at(envelope.updatedAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {page.nextCursor ? (
        <Link to={`${withView(page.view)}&cursor=${encodeURIComponent(page.nextCursor)}`} className={buttonClassName({ variant: "secondary" })}>
          Older documents
        </Link>
      ) : null}
    </div>
  );
}
