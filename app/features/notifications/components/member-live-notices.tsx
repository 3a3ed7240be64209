import { useLocation, useRevalidator } from "react-router";
import { showToast } from "~/components/ui/toast";
import { useMemberRealtime } from "~/features/datarooms/components/use-room-realtime";

/**
 * A member's notices as they happen (their own realtime channel, private-member.{id}): each one
 * is a toast, and the page they are on reloads its data when the notice concerns it (the
 * notifications list, or the folder the files went into).
 */
export function MemberLiveNotices({ userId }: { userId: string }) {
  const revalidator = useRevalidator();
  const location = useLocation();
  useMemberRealtime(userId, (name, data) => {
    if (name !== "notification" || typeof data.title !== "string") return;
    showToast(data.title, { type: "info" });
    if (location.pathname === "/notifications" || location.pathname === data.link) void revalidator.revalidate();
  });
  return null;
}
