import { Suspense, type ReactNode } from "react";
import { Await, Link } from "react-router";
import { ProgressBar } from "~/components/ui/progress-bar";
import { Restricted } from "~/features/access/components/restricted";
import { formatBytes } from "~/features/files/files.constants";
import { formatUtc } from "~/lib/format-utc";
import { widgetTitle, type WidgetId } from "../dashboard.constants";
import type { DashboardWidgets, WidgetData } from "../dashboard.server";

/**
 * The dashboard's widgets (issue 36): each one a section with its title, rendered when its own
 * data arrives (Suspense per widget: one slow widget never holds the page), with a message that
 * says what to do next when it is empty. THE one place a widget's view is registered.
 */
const WIDGET_VIEWS: { [Id in WidgetId]: (props: { data: WidgetData[Id] }) => ReactNode } = {
  attention: AttentionView,
  "quick-actions": QuickActionsView,
  "recent-files": RecentFilesView,
  rooms: RoomsView,
  "share-views": ShareViewsView,
  storage: StorageView,
  "form-submissions": FormSubmissionsView,
};

const linkClass = "font-medium text-brand-700 underline-offset-2 hover:underline";

export function DashboardGrid({ layout, widgets }: { layout: WidgetId[]; widgets: DashboardWidgets }) {
  return (
    <ul className="grid gap-6 lg:grid-cols-2" aria-label="Your widgets">
      {layout.map((id) => (
        <li key={id} data-testid="widget" data-widget={id} className={id === "attention" ? "lg:col-span-2" : undefined}>
          <WidgetFrame id={id} promise={widgets[id]} />
        </li>
      ))}
    </ul>
  );
}

function WidgetFrame({ id, promise }: { id: WidgetId; promise: Promise<unknown> | undefined }) {
  const headingId = `widget-${id}`;
  const View = WIDGET_VIEWS[id] as (props: { data: unknown }) => ReactNode;
  return (
    <section aria-labelledby={headingId} className="h-full rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id={headingId} className="mb-3 text-base font-semibold text-slate-900">
        {widgetTitle(id)}
      </h2>
      <Suspense fallback={<p className="text-sm text-slate-600" aria-busy="true">Loading…</p>}>
        <Await resolve={promise} errorElement={<p className="text-sm text-red-700">This could not be loaded just now. Reload the page to try again.</p>}>
          {(data) => <View data={data} />}
        </Await>
      </Suspense>
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-700">{children}</p>;
}

function AttentionView({ data }: { data: WidgetData["attention"] }) {
  if (data.length === 0) {
    return <Empty>Nothing needs you right now. Mentions, files sent to you, answers to your secret requests, share links about to expire and storage running out show up here.</Empty>;
  }
  return (
    <ul className="divide-y divide-slate-200" data-testid="attention-list">
      {data.map((item) => (
        <li key={`${item.kind}:${item.href}:${item.at}`} className="flex flex-wrap items-start gap-x-3 gap-y-1 py-2" data-testid="attention-item" data-kind={item.kind}>
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-100">{item.label}</span>
          <div className="min-w-0 flex-1">
            {/* Room pages load as whole documents (spec §2); a plain link suits every target. */}
            <a href={item.href} className={linkClass}>
              {item.title}
            </a>
            {item.detail ? <p className="text-sm text-slate-700">{item.detail}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function QuickActionsView() {
  const action = "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50";
  return (
    <ul className="flex flex-wrap gap-2">
      <li>
        <Link to="/folders/inbox" className={action}>
          Upload files
        </Link>
      </li>
      <li>
        <Restricted permission="core_access" label="New data room">
          <Link to="/datarooms" className={action}>
            New data room
          </Link>
        </Restricted>
      </li>
      <li>
        <Link to="/folders" className={action}>
          Share a file or folder
        </Link>
      </li>
      <li>
        <Restricted feature="receive_pages" label="New receive page">
          <Link to="/receive-pages/new" className={action}>
            New receive page
          </Link>
        </Restricted>
      </li>
      <li>
        <Restricted feature="forms" label="New form">
          <Link to="/forms/create" className={action}>
            New form
          </Link>
        </Restricted>
      </li>
      <li>
        <Restricted feature="secrets" label="New secret">
          <Link to="/secrets/new" className={action}>
            New secret
          </Link>
        </Restricted>
      </li>
    </ul>
  );
}

function RecentFilesView({ data }: { data: WidgetData["recent-files"] }) {
  if (data.length === 0) {
    return (
      <Empty>
        No files yet.{" "}
        <Link to="/folders/inbox" className={linkClass}>
          Upload your first file to your Inbox
        </Link>
        .
      </Empty>
    );
  }
  return (
    <ul className="divide-y divide-slate-200">
      {data.map((file) => (
        <li key={file.id} className="flex items-baseline justify-between gap-3 py-2 text-sm">
          <span className="min-w-0">
            <Link to={`/files/${file.id}`} className={`${linkClass} break-all`}>
              {file.name}
            </Link>
            <span className="block text-xs text-slate-600">
              {file.space.name} · {file.folder.label}
            </span>
          </span>
          <span className="shrink-0 text-xs text-slate-600">{formatUtc(file.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

function FormSubmissionsView({ data }: { data: WidgetData["form-submissions"] }) {
  if (data.length === 0) {
    return (
      <Empty>
        No answers to your forms yet.{" "}
        <Link to="/forms" className={linkClass}>
          Build or open a form
        </Link>
        .
      </Empty>
    );
  }
  return (
    <ul className="divide-y divide-slate-200" data-testid="form-submissions-list">
      {data.map((submission) => (
        <li key={submission.id} className="flex items-baseline justify-between gap-3 py-2 text-sm">
          <Link to={`/forms/${submission.formId}/submissions/${submission.id}`} className={`${linkClass} min-w-0 truncate`}>
            {submission.formTitle}
          </Link>
          <span className="shrink-0 text-xs text-slate-600">{formatUtc(new Date(submission.createdAt))}</span>
        </li>
      ))}
    </ul>
  );
}

function RoomsView({ data }: { data: WidgetData["rooms"] }) {
  if (data.length === 0) {
    return (
      <Empty>
        You are in no data room yet.{" "}
        <Link to="/datarooms" className={linkClass}>
          Create one
        </Link>{" "}
        or ask someone to invite you to theirs.
      </Empty>
    );
  }
  return (
    <ul className="divide-y divide-slate-200">
      {data.map((room) => (
        <li key={room.id} className="flex items-baseline justify-between gap-3 py-2 text-sm">
          <span className="min-w-0">
            <a href={`/dataroom/${room.id}`} className={linkClass}>
              {room.name}
            </a>
            <span className="block text-xs text-slate-600">{room.isOwner ? "Yours" : room.role}</span>
          </span>
          <span className="shrink-0 text-xs text-slate-600">Active {formatUtc(new Date(room.lastActivity))}</span>
        </li>
      ))}
    </ul>
  );
}

const weekday = new Intl.DateTimeFormat("en-GB", { weekday: "short", timeZone: "UTC" });

/** A small bar chart drawn on the server (SVG), with its numbers in words for screen readers. */
function ShareViewsView({ data }: { data: WidgetData["share-views"] }) {
  const total = data.reduce((sum, day) => sum + day.visits, 0);
  if (total === 0) {
    return (
      <Empty>
        No visits this week. Share a file or folder from{" "}
        <Link to="/folders" className={linkClass}>
          your folders
        </Link>{" "}
        and its visits are counted here.
      </Empty>
    );
  }
  const max = Math.max(...data.map((day) => day.visits));
  const summary = `${total} ${total === 1 ? "visit" : "visits"} this week: ${data.map((day) => `${weekday.format(new Date(day.date))} ${day.visits}`).join(", ")}`;
  const barWidth = 28;
  const gap = 12;
  const height = 96;
  return (
    <figure>
      <svg role="img" aria-label={summary} viewBox={`0 0 ${data.length * (barWidth + gap)} ${height + 20}`} className="h-32 w-full max-w-md" data-testid="share-views-chart">
        {data.map((day, index) => {
          const barHeight = max === 0 ? 0 : Math.max(2, Math.round((day.visits / max) * height));
          const x = index * (barWidth + gap);
          return (
            <g key={day.date}>
              <rect x={x} y={height - barHeight} width={barWidth} height={barHeight} rx={3} className="fill-brand-600" />
              <text x={x + barWidth / 2} y={height + 14} textAnchor="middle" className="fill-slate-600 text-[10px]">
                {weekday.format(new Date(day.date))}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 text-sm text-slate-700">
        {total} {total === 1 ? "visit" : "visits"} in the last 7 days.{" "}
        <Link to="/share-links" className={linkClass}>
          See your links
        </Link>
      </figcaption>
    </figure>
  );
}

function StorageView({ data }: { data: WidgetData["storage"] }) {
  const used = formatBytes(data.usedBytes);
  return (
    <div className="space-y-2">
      {data.quotaBytes === null ? (
        <p className="text-sm text-slate-700">
          {used} used by {data.fileCount} {data.fileCount === 1 ? "file" : "files"}; your plan has no storage limit.
        </p>
      ) : (
        <ProgressBar value={(data.usedBytes / data.quotaBytes) * 100} label={`${used} of ${formatBytes(data.quotaBytes)}`} showValue />
      )}
      <Link to="/settings/storage" className={`${linkClass} text-sm`}>
        See what uses your storage
      </Link>
    </div>
  );
}

