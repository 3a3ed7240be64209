import { useLocation } from "react-router";
import { showToast } from "~/components/ui/toast";
import { useMemberRealtime } from "~/features/datarooms/components/use-room-realtime";
import { useLiveRevalidate } from "~/lib/use-live-revalidate";

/**
 * A member's notices as they happen (their own realtime channel, private-member.{id}): each one
 * is a toast, and the page they are on reloads its data when the notice concerns it (the
 * notifications list, or the folder the files went into).
 */
export function MemberLiveNotices({ userId }: { userId: string }) {
  const revalidate = useLiveRevalidate();
  const location = useLocation();
  useMemberRealtime(userId, (name, data) => {
    if (name !== "notification" || typeof data.title !== "string") return;
    showToast(data.title, { type: "info" });
    if (location.pathname === "/notifications" || location.pathname === data.link) revalidate();
  });
  return null;
}
