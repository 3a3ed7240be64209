import { useMemo, useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { MoveDialog, type MovableItem } from "./move-dialog";
import { RenameDialog } from "./rename-dialog";

/** The file page's Rename and Move (for members who may edit here); the page reloads its data after either. */
export function FileActions({ file, rootFolderId }: { file: { id: string; name: string; folderId: string }; rootFolderId: string }) {
  const revalidator = useRevalidator();
  const [isRenameOpen, setRenameOpen] = useState(false);
  const [isMoveOpen, setMoveOpen] = useState(false);
  const items: MovableItem[] = useMemo(() => [{ type: "file", id: file.id, name: file.name }], [file.id, file.name]);
  const refresh = () => void revalidator.revalidate();
  return (
    <>
      <Button variant="secondary" onClick={() => setRenameOpen(true)}>
        Rename
      </Button>
      <Button variant="secondary" onClick={() => setMoveOpen(true)}>
        Move
      </Button>
      <RenameDialog item={items[0] ?? null} open={isRenameOpen} onOpenChange={setRenameOpen} onRenamed={refresh} />
      <MoveDialog items={items} rootFolderId={rootFolderId} currentFolderId={file.folderId} open={isMoveOpen} onOpenChange={setMoveOpen} onMoved={refresh} />
    </>
  );
}
