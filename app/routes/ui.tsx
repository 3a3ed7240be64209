import { useState } from "react";
import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { KitControlsSection } from "~/components/kit/controls-section";
import { KitHttpSection } from "~/components/kit/http-section";
import { KitOverlaysSection } from "~/components/kit/overlays-section";
import { KitToastsSection } from "~/components/kit/toasts-section";
import { readConfig } from "~/lib/config.server";
import { requestContext } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { toastMessages, toastTypes } from "~/lib/toast.schema";
import { redirectWithToast } from "~/lib/toast.server";
import { parseInput } from "~/lib/validation";
import { z } from "zod";
import type { Route } from "./+types/ui";

export const meta: Route.MetaFunction = () => titleMeta("Interface kit");

function assertKitEnabled(env: Env) {
  const config = readConfig(env);
  if (config.isProduction) throw data(null, { status: 404 });
  return config;
}

/** The interface-kit page exists outside production only. */
export function loader({ context }: Route.LoaderArgs) {
  assertKitEnabled(context.get(requestContext).env);
  return null;
}

const flashDemoSchema = z.object({
  thing: z.string().trim().min(1, "Name the thing you saved.").max(60, "Keep it under 60 characters."),
  type: z.enum(toastTypes).default("success"),
});

/** Demonstrates a server action that redirects and flashes a toast through a cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, isSecure } = context.get(requestContext);
  const config = assertKitEnabled(env);
  const input = parseInput(flashDemoSchema, Object.fromEntries(await request.formData()));
  return redirectWithToast(
    "/ui",
    { type: input.type, message: toastMessages.created(input.thing) },
    { secret: config.SESSION_SECRET, isSecure },
  );
}

/**
 * The kit page. "Reset the kit" puts every demonstration back as it was on load (each section is
 * mounted afresh, every toast and queued toast is dismissed) without a page load; the browser tests
 * of the kit share one open page per worker and start each test from there (docs/testing.md).
 */
export default function InterfaceKit() {
  const [generation, setGeneration] = useState(0);
  return (
    <div className="space-y-12">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Interface kit</h1>
          <p className="mt-2 text-slate-700">Every component of the kit in every state. Not available in production.</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          data-kit-generation={generation}
          onClick={() => {
            toast.dismissAll();
            setGeneration((value) => value + 1);
          }}
        >
          Reset the kit
        </Button>
      </header>
      <div key={generation} className="space-y-12">
        <KitControlsSection />
        <KitOverlaysSection />
        <KitToastsSection />
        <KitHttpSection />
      </div>
    </div>
  );
}
