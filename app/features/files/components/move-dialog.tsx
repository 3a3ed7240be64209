import { useEffect, useMemo, useState } from "react";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { Spinner } from "~/components/ui/spinner";
import { showToast } from "~/components/ui/toast";
import { http } from "~/lib/http";
import type { FolderTree, FolderTreeNode } from "../folders.server";
import { BATCH_FROM, itemCount, MAX_ITEMS_PER_CALL } from "../trash.constants";
import { FolderGlyph } from "./folder-glyph";

export type MovableItem = { type: "file" | "folder"; id: string; name: string };

type Choice = { uid: string; label: string; depth: number; node: Pick<FolderTreeNode, "color" | "icon" | "kind">; isDisabled: boolean; note: string | null };

/**
 * The folders of one space, top first, each with its depth. A folder being moved, and everything
 * below it, cannot be the target; nor can the folder the items are in now.
 */
function choicesOf(tree: FolderTree[number], items: MovableItem[], currentFolderId: string | null, mode: "move" | "copy"): Choice[] {
  // A copy may go into the folder it is in (it gets " (2)"); a move there would change nothing.
  const isCurrentBlocked = mode === "move";
  const movingNote = mode === "move" ? "being moved" : "being copied";
  const moving = new Set(items.filter((item) => item.type === "folder").map((item) => item.id));
  const choices: Choice[] = [
    {
      uid: tree.rootUid,
      label: tree.spaceName,
      depth: 0,
      node: { color: null, icon: null, kind: "root" },
      isDisabled: isCurrentBlocked && tree.rootUid === currentFolderId,
      note: tree.rootUid === currentFolderId ? "current folder" : tree.spaceKind === "team" ? "team files" : null,
    },
  ];
  const walk = (nodes: FolderTreeNode[], depth: number, isInsideMoving: boolean) => {
    for (const node of [...nodes].sort((a, b) => a.label.localeCompare(b.label))) {
      const isMoving = isInsideMoving || moving.has(node.uid);
      const isCurrent = node.uid === currentFolderId;
      const isBlocked = isCurrentBlocked && isCurrent;
      choices.push({
        uid: node.uid,
        label: node.label,
        depth,
        node,
        isDisabled: isMoving || isBlocked,
        note: isCurrent ? "current folder" : moving.has(node.uid) ? movingNote : null,
      });
      walk(node.children, depth + 1, isMoving);
    }
  };
  walk(tree.children, 1, false);
  return choices;
}

/**
 * "Move to…" / "Copy to…": pick a folder of the same space (a data room, or the member's own
 * files); a copy of the member's own files may also go into their teams' files. A move of up to BATCH_FROM items goes at once (POST /api/items/move), more through the
 * batch manager (`onBatch`); a copy always runs as a batch operation (the bytes are copied in the
 * background). Names already taken there are kept apart by the server (“report (2).pdf”).
 */
export function MoveDialog({
  mode = "move",
  items,
  rootFolderId,
  currentFolderId,
  open,
  onOpenChange,
  onMoved,
  onBatch,
}: {
  mode?: "move" | "copy";
  items: MovableItem[];
  /** The top folder of the space the items are in: its folders are the choices. */
  rootFolderId: string;
  currentFolderId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onMoved: (targetFolderId: string) => void;
  /** More than BATCH_FROM items: handed to the batch manager (the operations panel shows the progress). */
  onBatch?: (targetFolderId: string, targetLabel: string) => void;
}) {
  const [trees, setTrees] = useState<FolderTree | null | undefined>(undefined);
  const [target, setTarget] = useState<string | null>(null);
  const [isMoving, setIsMoving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTarget(null);
    setTrees(undefined);
    let isCurrent = true;
    http
      .get<{ spaces: FolderTree }>("/api/folders")
      .then(({ spaces }) => {
        const own = spaces.find((space) => space.rootUid === rootFolderId);
        // A copy of the member's own files may also go into their teams' files (issue 42).
        const others = mode === "copy" && own?.spaceKind === "personal" ? spaces.filter((space) => space.spaceKind === "team") : [];
        if (isCurrent) setTrees(own ? [own, ...others] : null);
      })
      .catch(() => {
        // The HTTP client has told the member; the dialog offers nothing to pick.
        if (isCurrent) setTrees(null);
      });
    return () => {
      isCurrent = false;
    };
  }, [open, rootFolderId, mode]);

  const choices = useMemo(() => (trees === undefined ? null : trees === null ? [] : trees.flatMap((tree) => choicesOf(tree, items, currentFolderId, mode))), [trees, items, currentFolderId, mode]);
  const verb = mode === "move" ? "Move" : "Copy";
  const count = items.length;
  const chosen = choices?.find((choice) => choice.uid === target) ?? null;

  const onConfirm = async () => {
    if (!chosen || isMoving) return;
    if (onBatch && (mode === "copy" || items.length > BATCH_FROM)) {
      onBatch(chosen.uid, chosen.label);
      showToast(`${mode === "move" ? "Moving" : "Copying"} ${itemCount(count)} to “${chosen.label}”: follow it under Operations.`, { type: "info" });
      onOpenChange(false);
      return;
    }
    setIsMoving(true);
    try {
      for (let start = 0; start < items.length; start += MAX_ITEMS_PER_CALL) {
        const part = items.slice(start, start + MAX_ITEMS_PER_CALL);
        await http.post("/api/items/move", { items: part.map(({ type, id }) => ({ type, id })), targetFolderId: chosen.uid });
      }
      showToast(`Moved ${itemCount(count)} to “${chosen.label}”`, { type: "success" });
      onOpenChange(false);
      onMoved(chosen.uid);
    } catch {
      // The HTTP client has already said what went wrong; the dialog stays open to choose again.
    } finally {
      setIsMoving(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`${verb} ${itemCount(count)}`}
      description={mode === "copy" ? (count === 1 ? `Choose where the copy of “${items[0]?.name}” goes.` : "Choose the folder the copies go to.") : count === 1 ? `Choose where “${items[0]?.name}” goes.` : "Choose the folder they go to."}
      isDismissable={!isMoving}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isMoving}>
            Cancel
          </Button>
          <Button onClick={() => void onConfirm()} isLoading={isMoving} disabled={!chosen}>
            {isMoving ? "Moving..." : `${verb} here`}
          </Button>
        </>
      }
    >
      {choices === null ? (
        <Spinner size="sm" label="Loading folders" />
      ) : choices.length === 0 ? (
        <p className="text-sm text-slate-700">No folders to choose from.</p>
      ) : (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-900">Folder</legend>
          <ul className="max-h-80 space-y-0.5 overflow-y-auto rounded-md border border-slate-200 p-1">
            {choices.map((choice) => (
              <li key={choice.uid}>
                <label
                  className={
                    choice.isDisabled
                      ? "flex cursor-not-allowed items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-500"
                      : "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-900 hover:bg-slate-100 has-[:checked]:bg-brand-50"
                  }
                  style={{ paddingLeft: `${0.5 + choice.depth * 1.25}rem` }}
                >
                  <input
                    type="radio"
                    name={`${mode}-target`}
                    value={choice.uid}
                    checked={target === choice.uid}
                    disabled={choice.isDisabled || isMoving}
                    onChange={() => setTarget(choice.uid)}
                    className="h-4 w-4 accent-brand-600"
                  />
                  <FolderGlyph color={choice.node.color} icon={choice.node.icon} kind={choice.node.kind} />
                  <span className="break-all">{choice.label}</span>
                  {choice.note ? <span className="text-xs text-slate-600">({choice.note})</span> : null}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </Modal>
  );
}
