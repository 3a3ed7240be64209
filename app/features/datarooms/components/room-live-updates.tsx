import { useEffect, useRef, useState } from "react";
import { buttonClassName } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { useLiveRevalidate } from "~/lib/use-live-revalidate";
import { useRoomRealtime } from "./use-room-realtime";

const FILES_RELOAD_DELAY_MS = 500;

/**
 * Keeps a data-room page true while it is open: when the person's permissions change, the page
 * reloads its data (controls they lost disappear, ones they gained appear); when someone adds,
 * deletes or restores files or folders in the room (or another event the page names: comments,
 * notifications), the page reloads its data; when they are
 * removed, a dialog that cannot be dismissed says so and leads back to their data rooms.
 */
export function RoomLiveUpdates({
  roomId,
  showPresence = false,
  reloadOnPresence = false,
  reloadOn = ["files.changed"],
}: {
  roomId: string;
  showPresence?: boolean;
  reloadOnPresence?: boolean;
  /** The room events that reload the page's data (files by default; comments, notifications). */
  reloadOn?: readonly string[];
}) {
  const revalidate = useLiveRevalidate();
  const [removed, setRemoved] = useState<string | null>(null);
  const [present, setPresent] = useState<{ userId: string; name: string }[]>([]);
  // Several changes in a row (a folder upload) reload the page's data once.
  const pendingReload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pendingReload.current), []);
  const reloadSoon = () => {
    clearTimeout(pendingReload.current);
    pendingReload.current = setTimeout(revalidate, FILES_RELOAD_DELAY_MS);
  };
  const status = useRoomRealtime(roomId, {
    onPermissionsChanged: revalidate,
    onRemoved: setRemoved,
    onPresence: (people) => {
      setPresent(people);
      // The sessions page lists who is here from the server: someone arriving or leaving reloads it.
      if (reloadOnPresence) reloadSoon();
    },
    onEvent: (name) => {
      if (reloadOn.includes(name)) reloadSoon();
    },
  });
  return (
    <>
      {showPresence && present.length > 0 ? (
        <p className="text-sm text-slate-700" data-testid="room-presence">
          <span className="mr-1 inline-block h-2 w-2 rounded-full bg-emerald-600" aria-hidden="true" />
          In the room now: {present.map((person) => person.name).join(", ")}
        </p>
      ) : null}
      <span className="sr-only" data-testid="realtime-status" data-status={status}>
        {status === "connected" ? "Live updates on" : status === "unavailable" ? "Live updates unavailable, retrying" : ""}
      </span>
      <Modal
        title="You no longer have access"
        open={removed !== null}
        isDismissable={false}
        variant="warning"
        footer={
          <a href="/datarooms" className={buttonClassName()}>
            Go to your data rooms
          </a>
        }
      >
        <p>{removed}</p>
      </Modal>
    </>
  );
}
