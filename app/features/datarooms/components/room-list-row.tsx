import { Form } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { ROLE_LABELS } from "../datarooms.permissions";
import type { DataroomListItem } from "../datarooms.server";

/** One room in a list of rooms (the index, the archived rooms, the trash): name, role, owner, counts, and Open or Restore. */
export function RoomListRow({ room }: { room: DataroomListItem }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="dataroom-row">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          {/* /dataroom/ pages are server-driven navigations (spec §2): a full document load. */}
          {room.trashedAt ? (
            <span className="text-base font-medium text-slate-900">{room.name}</span>
          ) : (
            <a href={`/dataroom/${room.id}`} className="text-base font-medium text-brand-700 underline-offset-2 hover:underline">
              {room.name}
            </a>
          )}
          <Badge variant={room.isOwner ? "brand" : "neutral"}>{ROLE_LABELS[room.role]}</Badge>
          {room.archived ? <Badge variant="warning">Archived</Badge> : null}
          {room.overPlan && !room.archived ? <Badge variant="warning">Read-only</Badge> : null}
        </div>
        {room.description ? <p className="line-clamp-2 text-sm text-slate-700">{room.description}</p> : null}
        <p className="text-xs text-slate-600">
          {room.isOwner ? "Yours" : `Owned by ${room.owner.name}`} · {room.fileCount} {room.fileCount === 1 ? "file" : "files"} · {room.memberCount}{" "}
          {room.memberCount === 1 ? "person" : "people"}
        </p>
      </div>
      {room.trashedAt ? (
        <Form method="post" className="flex items-center gap-3">
          <CsrfInput />
          <input type="hidden" name="intent" value="restore" />
          <input type="hidden" name="id" value={room.id} />
          <span className="text-xs text-slate-600">Deleted for good on {room.purgeAt?.slice(0, 10)}</span>
          <Button type="submit" size="sm" variant="secondary" aria-label={`Restore ${room.name}`}>
            Restore
          </Button>
        </Form>
      ) : (
        <a href={`/dataroom/${room.id}`} className={buttonClassName({ variant: "secondary", size: "sm" })} aria-label={`Open ${room.name}`}>
          Open
        </a>
      )}
    </li>
  );
}
