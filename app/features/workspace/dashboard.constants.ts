import { z } from "zod";

/**
 * The dashboard's widgets (issue 36): THE one place a module registers a widget (its id, title
 * and what an empty one says to do next). Its data comes from `WIDGET_LOADERS`
 * (dashboard.server.ts) and its view from `WIDGET_VIEWS` (components/dashboard-widgets.tsx), both
 * keyed by these ids, so a widget missing either does not compile. Browser-safe.
 */
export const WIDGETS = [
  { id: "attention", title: "Needs your attention", description: "What waits for you across the product: mentions, files sent to you, answers to your requests, links about to expire, storage nearly full." },
  { id: "quick-actions", title: "Quick actions", description: "Upload, and start a room, a share link, a receive page, a secret or a form." },
  { id: "recent-files", title: "Recent files", description: "The newest files in your folders and rooms." },
  { id: "rooms", title: "Your data rooms", description: "The rooms you are in, the most recently active first." },
  { id: "share-views", title: "Share-link views this week", description: "Visits to the links you shared, day by day." },
  { id: "storage", title: "Storage", description: "How much of your plan's space your files use." },
  { id: "form-submissions", title: "Form submissions", description: "The newest answers to your forms." },
] as const;

export type WidgetId = (typeof WIDGETS)[number]["id"];
export const WIDGET_IDS = WIDGETS.map((widget) => widget.id) as WidgetId[];
export const DEFAULT_LAYOUT: readonly WidgetId[] = WIDGET_IDS;

export function widgetTitle(id: WidgetId): string {
  return WIDGETS.find((widget) => widget.id === id)!.title;
}

const widgetIdSchema = z.enum(WIDGET_IDS as [WidgetId, ...WidgetId[]], { message: `Each widget must be one of: ${WIDGET_IDS.join(", ")}.` });

/** A layout the member saves: the widgets they show, in their order, each once. */
export const dashboardLayoutSchema = z
  .array(widgetIdSchema, { message: "The layout is a list of widget ids." })
  .max(WIDGET_IDS.length)
  .refine((ids) => new Set(ids).size === ids.length, { message: "A widget can be shown only once." });

/** The stored layout as the member left it; anything unreadable (an id a later version dropped) falls back gracefully. */
export function readLayout(stored: unknown): WidgetId[] {
  if (!Array.isArray(stored)) return [...DEFAULT_LAYOUT];
  const known = stored.filter((id): id is WidgetId => (WIDGET_IDS as string[]).includes(id as string));
  return [...new Set(known)];
}

/** A change on Settings: dashboard: show, hide, or move one widget up or down. */
export const layoutChangeSchema = z.object({
  intent: z.enum(["show", "hide", "up", "down", "reset", "order"], { message: "Say show, hide, up, down, order or reset." }),
  widget: widgetIdSchema.optional(),
  /** intent "order" (a drag and drop): the shown widgets in their new order, comma-separated. */
  order: z
    .string()
    .max(500)
    .transform((value) => value.split(",").map((id) => id.trim()).filter((id) => id !== ""))
    .pipe(z.array(widgetIdSchema))
    .optional(),
});
