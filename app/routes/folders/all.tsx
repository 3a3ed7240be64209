import { Link } from "react-router";
import { HelpLink } from "~/features/guide/components/help-link";
import { buttonClassName } from "~/components/ui/button";
import { FolderGlyph } from "~/features/files/components/folder-glyph";
import { getAllFolders, type FolderTreeNode } from "~/features/files/folders.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { teamDriveFor } from "~/features/teams/team-drive.server";
import { currentWorkspace } from "~/features/teams/workspace.server";
import type { Route } from "./+types/all";

export const meta: Route.MetaFunction = () => titleMeta("All folders");

export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell (issue 42): a team's drive and rooms, or the member's own spaces.
    const workspace = await currentWorkspace(ctx, member.user.id, request);
    const drive = workspace ? await teamDriveFor(ctx, workspace.id, workspace.filesRights) : null;
    const spaces = await getAllFolders(ctx, member.user.id, workspace?.id ?? null);
    return { spaces, workspace: workspace ? { name: workspace.name } : null, drive };
  });
}

/** Every folder of every space the member belongs to, as a tree (spec §2 "Folders: all"). */
export default function AllFolders({ loaderData }: Route.ComponentProps) {
  const { spaces, workspace, drive } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">All folders</h1>
          {workspace ? (
            <p className="text-sm text-slate-700" data-testid="workspace-note">
              The folders of the team “{workspace.name}”: its own files and its data rooms. Switch to Personal (top right) for your own.
            </p>
          ) : null}
          <HelpLink article="files">How files and folders work</HelpLink>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/folders/global-inbox" className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Global inbox
          </Link>
          <Link to="/folders/global-outbox" className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Global outbox
          </Link>
          {!workspace || drive?.canEdit ? (
            <Link to={drive ? `/folders/new?parent=${drive.rootId}` : "/folders/new"} className={buttonClassName({ size: "sm" })}>
              New folder
            </Link>
          ) : null}
        </div>
      </div>
      {spaces.length === 0 ? <p className="text-sm text-slate-700">Nothing of this team's is open to your role.</p> : null}
      {spaces.map((space) => (
        <section key={space.spaceId} aria-labelledby={`space-${space.spaceId}`} className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id={`space-${space.spaceId}`} className="mb-3 text-lg font-semibold text-slate-900">
            <Link to={`/folders/${space.rootUid}`} className="hover:underline">
              {space.spaceName}
            </Link>
          </h2>
          {space.children.length === 0 ? <p className="text-sm text-slate-700">No folders yet.</p> : <FolderTreeList nodes={space.children} />}
        </section>
      ))}
    </div>
  );
}

function FolderTreeList({ nodes }: { nodes: FolderTreeNode[] }) {
  return (
    <ul className="space-y-1 border-l border-slate-200 pl-4">
      {nodes.map((node) => (
        <li key={node.uid}>
          <Link to={`/folders/${node.uid}`} className="inline-flex items-center gap-2 rounded px-1 py-0.5 text-slate-900 hover:bg-slate-100">
            <FolderGlyph color={node.color} icon={node.icon} kind={node.kind} className="text-xl" />
            {node.label}
          </Link>
          {node.children.length > 0 ? <FolderTreeList nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}
