const linkClass = "font-medium text-brand-700 underline-offset-2 hover:underline";

/** "Data rooms / {room} / …" above a room page's heading (plain links: /dataroom/ pages load as documents). */
export function RoomBreadcrumbs({ room, trail = [] }: { room: { id: string; name: string }; trail?: { href: string; label: string }[] }) {
  const links = [{ href: "/datarooms", label: "Data rooms" }, { href: `/dataroom/${room.id}`, label: room.name }, ...trail];
  return (
    <p className="text-sm text-slate-600">
      {links.map((link, index) => (
        <span key={link.href}>
          {index > 0 ? " / " : null}
          <a href={link.href} className={linkClass}>
            {link.label}
          </a>
        </span>
      ))}
    </p>
  );
}
