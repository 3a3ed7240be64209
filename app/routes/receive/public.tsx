import { lazy, Suspense } from "react";
import { data, redirect } from "react-router";
import { openReceivePage, readReceiveUnlockCookie, receiveUnlockCookie, unlockReceivePage } from "~/features/receive/receive-public.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/public";

// The password gate, the form and its uploads (tus-js-client) load outside the page's first-load
// JavaScript (G5); the gate is server-rendered and posts as plain HTML until it hydrates.
const ReceivePasswordGate = lazy(() => import("~/features/receive/components/receive-password-gate").then((module) => ({ default: module.ReceivePasswordGate })));
const ReceiveUploader = lazy(() => import("~/features/receive/components/receive-uploader").then((module) => ({ default: module.ReceiveUploader })));

const ENDED = {
  missing: { title: "Receive page not found", text: "This receive page does not exist. Check the address you were given." },
  closed: { title: "Receive page closed", text: "This page is closed: it takes no more files. Ask the person who sent you the link." },
  "past-deadline": { title: "Receive page past its deadline", text: "This page stopped taking files at its deadline. Ask the person who sent you the link." },
} as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const opening = loaderData?.opening;
  if (!opening) return titleMeta("Send files");
  if (opening.state === "open") return titleMeta(opening.page.title);
  if (opening.state === "password") return titleMeta(opening.title);
  return titleMeta(ENDED[opening.state].title);
};

// The address may be the page's secret: never sent to other sites as a referrer, never cached.
export const headers = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

/** /r/{slug or token}: a receive page for anyone who has its address (spec §1 "public receive pages"). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const opening = await runLoader(() => openReceivePage(serviceContextFor(context), params.address, readReceiveUnlockCookie(request.headers.get("Cookie"))));
  const status = opening.state === "missing" ? 404 : opening.state === "closed" || opening.state === "past-deadline" ? 410 : 200;
  // A page sent for a case carries the case's ticket (?task=): the submission hands it on, and the server decides what it means.
  const task = new URL(request.url).searchParams.get("task")?.slice(0, 200) ?? null;
  return data({ opening, address: params.address, task }, { status });
}

/** The password gate: the right password sets the unlock cookie and reloads the page. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { isSecure } = context.get(requestContext);
  const form = await request.formData();
  return runFormAction(async () => {
    const cookie = await unlockReceivePage(serviceContextFor(context), params.address, { password: form.get("password") });
    // Back to the same address: a case's ?task=… stays.
    return redirect(`/r/${encodeURIComponent(params.address)}${new URL(request.url).search.slice(0, 400)}`, { headers: { "Set-Cookie": receiveUnlockCookie(cookie, isSecure) } });
  });
}

export default function ReceivePublicPage({ loaderData, actionData }: Route.ComponentProps) {
  const { opening, address, task } = loaderData;
  if (opening.state === "missing" || opening.state === "closed" || opening.state === "past-deadline") {
    return (
      <div className="mx-auto max-w-2xl space-y-2" data-testid="receive-ended">
        <h1 className="text-2xl font-semibold text-slate-900">{ENDED[opening.state].title}</h1>
        <p className="text-sm text-slate-700">
          {opening.state === "past-deadline"
            ? `“${opening.title}” stopped taking files on ${opening.deadlineAt.slice(0, 16).replace("T", " ")} UTC. Ask ${opening.ownerName} for a new link.`
            : opening.state === "closed"
              ? `“${opening.title}” is closed: it takes no more files. Ask ${opening.ownerName} for a new link.`
              : ENDED.missing.text}
        </p>
      </div>
    );
  }
  const accent = opening.state === "open" ? opening.page.brandColor : opening.brandColor;
  const title = opening.state === "open" ? opening.page.title : opening.title;
  const ownerName = opening.state === "open" ? opening.page.ownerName : opening.ownerName;
  const logoPath = opening.state === "open" ? opening.page.logoPath : opening.logoPath;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-2 border-t-4 pt-4" style={{ borderTopColor: accent ?? "#1d4ed8" }}>
        {logoPath ? <img src={logoPath} alt={`Logo of ${ownerName}`} className="h-12 w-auto max-w-[240px] object-contain" data-testid="receive-logo" /> : null}
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        <p className="text-sm text-slate-700">{ownerName} asks you for files. Only they will see what you send.</p>
      </div>
      {opening.state === "password" ? (
        <Suspense fallback={<p className="text-sm text-slate-700">Loading…</p>}>
          <ReceivePasswordGate failure={actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null} />
        </Suspense>
      ) : (
        <>
          {opening.page.message ? (
            <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-900" data-testid="receive-message">
              {opening.page.message}
            </p>
          ) : null}
          <noscript>
            <p className="text-sm text-slate-900">Sending files needs JavaScript: they are uploaded in parts, so a broken connection resumes where it stopped.</p>
          </noscript>
          <Suspense fallback={<p className="text-sm text-slate-700">Loading…</p>}>
            <ReceiveUploader address={address} page={opening.page} task={task} />
          </Suspense>
        </>
      )}
    </div>
  );
}
