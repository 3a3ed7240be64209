import { useState } from "react";
import { useRevalidator } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { useRoomRealtime } from "./use-room-realtime";

/**
 * Keeps a data-room page true while it is open: when the person's permissions change, the page
 * reloads its data (controls they lost disappear, ones they gained appear); when they are removed,
 * a dialog that cannot be dismissed says so and leads back to their data rooms.
 */
export function RoomLiveUpdates({ roomId }: { roomId: string }) {
  const revalidator = useRevalidator();
  const [removed, setRemoved] = useState<string | null>(null);
  const status = useRoomRealtime(roomId, {
    onPermissionsChanged: () => void revalidator.revalidate(),
    onRemoved: setRemoved,
  });
  return (
    <>
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
