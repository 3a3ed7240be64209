import { Form, Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { CASE_STATUS_LABELS } from "~/features/cases/cases.schema";
import { listCases, listCaseTypes } from "~/features/cases/cases.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Cases");

const STATUS_VARIANTS: Record<string, BadgeVariant> = { open: "info", waiting: "warning", closed: "neutral" };
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** /cases (permission-critical: Business): the member's cases, filtered by type, status, assignee and due date. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return runLoader(async () => {
    const [list, types] = await Promise.all([listCases(ctx, user.id, query), listCaseTypes(ctx, user.id)]);
    return { ...list, types: types.map((type) => ({ id: type.id, name: type.name })) };
  });
}

export default function CasesPage({ loaderData }: Route.ComponentProps) {
  const { cases, types, query } = loaderData;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Cases</h1>
          <p className="text-sm text-slate-700">One place for everything about a matter: its fields, its people, its case file, its tasks and milestones, and a timeline of what happened, including the workflows that filed documents into it.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/cases/types" className={buttonClassName({ variant: "secondary" })}>
            Case types
          </Link>
          {types.length > 0 ? (
            <Link to="/cases/new" className={buttonClassName({})}>
              New case
            </Link>
          ) : null}
        </div>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-white p-3" aria-label="Filter cases">
        <label className="text-sm text-slate-900">
          Type
          <select name="type" defaultValue={query.type ?? ""} className={nativeSelectClassName}>
            <option value="">Any type</option>
            {types.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-900">
          Status
          <select name="status" defaultValue={query.status ?? ""} className={nativeSelectClassName}>
            <option value="">Any status</option>
            {Object.entries(CASE_STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-900">
          Assignee
          <select name="assignee" defaultValue={query.assignee ?? ""} className={nativeSelectClassName}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
            <option value="nobody">Nobody yet</option>
          </select>
        </label>
        <label className="text-sm text-slate-900">
          Due
          <select name="due" defaultValue={query.due ?? ""} className={nativeSelectClassName}>
            <option value="">Any time</option>
            <option value="overdue">Overdue</option>
            <option value="week">Within a week</option>
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>
      {types.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">
          <p>
            Start with a case type: the fields a case carries, the folders its case file starts with, and the workflow that runs on its documents.{" "}
            <Link to="/cases/types" className="font-medium text-brand-700 underline">
              Create a case type
            </Link>
          </p>
        </div>
      ) : cases.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">No case matches.</p>
      ) : (
        <Table caption="Cases, most recently changed first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Case</TableHeaderCell>
              <TableHeaderCell>Type</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Assignee</TableHeaderCell>
              <TableHeaderCell>Due</TableHeaderCell>
              <TableHeaderCell>Changed</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {cases.map((row) => (
              <TableRow key={row.id} data-testid="case-row">
                <TableCell>
                  <Link to={`/cases/${row.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {row.reference} {row.title}
                  </Link>
                </TableCell>
                <TableCell>{row.type}</TableCell>
                <TableCell>
                  <Badge variant={STATUS_VARIANTS[row.status] ?? "neutral"}>{CASE_STATUS_LABELS[row.status]}</Badge>
                </TableCell>
                <TableCell>{row.assignee ?? "Nobody yet"}</TableCell>
                <TableCell>{row.due ? <span className={row.isOverdue ? "font-semibold text-red-800" : undefined}>{dateOnly.format(new Date(row.due))}{row.isOverdue ? " (overdue)" : ""}</span> : "None"}</TableCell>
                <TableCell>{dateTimeFormat.format(new Date(row.updatedAt))} UTC</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
