import { useEffect, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { Dropdown, type DropdownEntry } from "~/components/ui/dropdown";
import { http } from "~/lib/http";

type TeamOption = { id: string; name: string };

/**
 * The shell's workspace switcher (issue 42, ADR 040): the member's own workspace or one of their
 * teams'. Shown once the member is in a team. Choosing one sets it on the server (a cookie the
 * server checks against the member's teams on every request) and reloads the page's data, so every
 * list shows the chosen workspace's own.
 */
export function WorkspaceSwitcher({ current }: { current: TeamOption | null }) {
  const [teams, setTeams] = useState<TeamOption[] | null>(null);
  const revalidator = useRevalidator();
  const navigate = useNavigate();

  useEffect(() => {
    let isLive = true;
    http
      .get<{ teams: TeamOption[] }>("/api/teams", { background: true })
      .then((body) => isLive && setTeams(body.teams.map((team) => ({ id: team.id, name: team.name }))))
      .catch(() => isLive && setTeams([]));
    return () => {
      isLive = false;
    };
  }, [current?.id]);

  if (!current && (teams === null || teams.length === 0)) return null;
  const items: DropdownEntry[] = [
    { type: "label", id: "heading", label: "Work in" },
    { id: "personal", label: current === null ? "✓ Personal" : "Personal", textValue: "Personal" },
    ...(teams ?? []).map((team) => ({ id: team.id, label: team.id === current?.id ? `✓ ${team.name}` : team.name, textValue: team.name })),
    { type: "separator", id: "separator" },
    { id: "manage", label: "Teams…" },
  ];
  return (
    <Dropdown
      label={
        <span data-testid="workspace-switcher" className="max-w-48 truncate">
          {current ? current.name : "Personal"}
        </span>
      }
      aria-label={`Workspace: ${current ? current.name : "Personal"}. Switch workspace`}
      items={items}
      openOnHover={false}
      size="sm"
      align="end"
      onSelect={(id) => {
        if (id === "manage") return void navigate("/team");
        const teamId = id === "personal" ? null : id;
        if (teamId === (current?.id ?? null)) return;
        void http.put("/api/workspace/current", { teamId }).then(() => revalidator.revalidate());
      }}
    />
  );
}
