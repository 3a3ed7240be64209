import { ROLE_LABELS } from "~/features/datarooms/datarooms.permissions";
import { listRecentSubmissionsOf, type RecentFormSubmission } from "~/features/forms/forms.queries.server";
import { getRecentUploads, type OrganizedFile } from "~/features/files/organize.server";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { spaceUsage, type SpaceUsage } from "~/features/files/storage.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { loadAttention, type AttentionInput, type AttentionItem } from "./attention.server";
import { AppError } from "~/lib/errors";
import { teamDriveRoot } from "~/features/teams/team-drive.server";
import type { z } from "zod";
import { DEFAULT_LAYOUT, dashboardLayoutSchema, layoutChangeSchema, readLayout, WIDGET_IDS, type WidgetId } from "./dashboard.constants";
import { countShareVisitsPerDay, findDashboardLayout, listRoomsByActivity, saveDashboardLayout } from "./dashboard.queries.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const RECENT_FILES = 6;
const ROOMS = 5;
const RECENT_SUBMISSIONS = 5;

export type RoomActivity = { id: string; name: string; role: string; isOwner: boolean; lastActivity: string };
export type ShareViewsDay = { date: string; visits: number };
export type StorageMeter = { usedBytes: number; quotaBytes: number | null; fileCount: number };

/** What each widget shows: the loaders and the views agree on it by widget id. */
export type WidgetData = {
  attention: AttentionItem[];
  "quick-actions": null;
  "recent-files": OrganizedFile[];
  rooms: RoomActivity[];
  "share-views": ShareViewsDay[];
  storage: StorageMeter;
  "form-submissions": RecentFormSubmission[];
};

/**
 * What every widget may share within one dashboard request (the attention feed's sources too), and
 * the workspace chosen in the shell (issue 42): a team's id, or null for the member's own. The
 * rooms, recent files and storage widgets show the workspace's; what waits for the member (the
 * attention feed), their share links' views and their forms' answers are theirs wherever they are.
 */
type WidgetInput = AttentionInput & { workspace: Promise<string | null> };

/**
 * THE one place a widget's data is read (one or two D1 round trips each, whatever the member owns;
 * the widgets run in parallel). Every read is the member's own: their notices, files in spaces
 * they are a member of, rooms they are in now, links they made.
 */
const WIDGET_LOADERS: { [Id in WidgetId]: (ctx: ServiceContext, input: WidgetInput) => Promise<WidgetData[Id]> } = {
  attention: (ctx, input) => loadAttention(ctx, input),
  "quick-actions": async () => null,
  "recent-files": async (ctx, { userId, workspace }) => (await getRecentUploads(ctx, userId, {}, await workspace)).files.slice(0, RECENT_FILES),
  rooms: async (ctx, { userId, workspace }) =>
    (await listRoomsByActivity(ctx.db, userId, ROOMS, await workspace)).map((room) => ({
      id: room.id,
      name: room.name,
      role: ROLE_LABELS[room.role],
      isOwner: room.ownerId === userId,
      lastActivity: new Date(Number(room.lastActivity)).toISOString(),
    })),
  "share-views": async (ctx, { userId, now }) => {
    const today = Math.floor(now.getTime() / DAY_MS);
    const counts = new Map((await countShareVisitsPerDay(ctx.db, userId, new Date((today - 6) * DAY_MS))).map((row) => [Number(row.day), Number(row.visits)]));
    return Array.from({ length: 7 }, (_, index) => {
      const day = today - 6 + index;
      return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), visits: counts.get(day) ?? 0 };
    });
  },
  "form-submissions": (ctx, { userId }) => listRecentSubmissionsOf(ctx.db, userId, RECENT_SUBMISSIONS),
  storage: async (ctx, { personalUsage, workspace }) => {
    // A team's workspace: the team's own files (its drive), on the team owner's plan.
    const teamId = await workspace;
    if (teamId) await teamDriveRoot(ctx, teamId); // a team made before drives gets its drive here
    const usage = teamId ? await spaceUsage(ctx, teamId) : await personalUsage();
    return { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes, fileCount: usage.fileCount };
  },
};

export type DashboardWidgets = { [Id in WidgetId]?: Promise<WidgetData[Id]> };

/**
 * The signed-in home: the member's layout and, for each widget they show, a promise of its data.
 * The page streams: each widget renders when its own data arrives, so one slow widget never holds
 * the others. `storedLayout` is the account row's (the session already read it: no round trip).
 */
export function getDashboard(ctx: ServiceContext, userId: string, storedLayout: unknown, workspace: Promise<string | null> = Promise.resolve(null)): { layout: WidgetId[]; widgets: DashboardWidgets } {
  const layout = readLayout(storedLayout);
  let usage: Promise<SpaceUsage> | null = null;
  const input: WidgetInput = {
    userId,
    workspace,
    now: ctx.now(),
    personalUsage: () => (usage ??= ensurePersonalSpace(ctx, userId).then((space) => spaceUsage(ctx, space.id))),
  };
  const widgets: Record<string, Promise<unknown>> = {};
  for (const id of layout) {
    const pending = WIDGET_LOADERS[id](ctx, input);
    // A widget that fails shows its own error; the rejection is handled where it is awaited.
    pending.catch((error: unknown) => ctx.logger.error("dashboard widget failed", { widget: id, error: error instanceof Error ? error.message : String(error) }));
    widgets[id] = pending;
  }
  return { layout, widgets: widgets as DashboardWidgets };
}

/** Settings: dashboard. The layout as the member keeps it, with every widget they could add. */
export async function getDashboardSettings(ctx: ServiceContext, userId: string) {
  const row = await findDashboardLayout(ctx.db, userId);
  const layout = readLayout(row?.layout ?? null);
  return { layout, hidden: WIDGET_IDS.filter((id) => !layout.includes(id)) };
}

/** Show, hide or move one widget (or go back to the default layout); saved on the member's account. */
export async function changeDashboardLayout(ctx: ServiceContext, userId: string, input: unknown): Promise<WidgetId[]> {
  const change = parseInput(layoutChangeSchema, input);
  const current = await getDashboardSettings(ctx, userId);
  const next = parseInput(dashboardLayoutSchema, applyLayoutChange(current.layout, change));
  await saveDashboardLayout(ctx.db, userId, next, ctx.now());
  return next;
}

function applyLayoutChange(layout: readonly WidgetId[], change: z.output<typeof layoutChangeSchema>): WidgetId[] {
  const next = [...layout];
  if (change.intent === "reset") return [...DEFAULT_LAYOUT];
  if (change.intent === "order") {
    const order = change.order ?? [];
    // A new order of the same widgets: a drag never adds or removes one (a stale page, or a forged request).
    const isSameSet = order.length === next.length && new Set(order).size === order.length && order.every((id) => next.includes(id));
    if (!isSameSet) throw new AppError("CONFLICT", "The new order must hold exactly the widgets on your dashboard. Reload the page and try again.");
    return order;
  }
  const widget = change.widget;
  if (!widget) return next;
  const index = next.indexOf(widget);
  if (change.intent === "show") return index === -1 ? [...next, widget] : next;
  if (change.intent === "hide") return next.filter((id) => id !== widget);
  if (index === -1) return next;
  const target = change.intent === "up" ? index - 1 : index + 1;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}
