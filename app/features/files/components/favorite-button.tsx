import "material-icons/iconfont/filled.css";
import { clsx } from "clsx";
import { useEffect, useRef, useState } from "react";
import { http } from "~/lib/http";
import type { FavoriteItemType } from "../organize.schema";

export type FavoriteButtonProps = {
  itemType: FavoriteItemType;
  itemId: string;
  /** The item's display name, for the button's label ("Add Reports to favorites"). */
  name: string;
  initial: boolean;
  /** Also show the words next to the star (the details panel); rows show the star only. */
  isLabelVisible?: boolean;
  onChange?: (isFavorite: boolean) => void;
  className?: string;
};

export function favoriteLabel(name: string, isFavorite: boolean): string {
  return isFavorite ? `Remove ${name} from favorites` : `Add ${name} to favorites`;
}

/**
 * The star that adds an item to the member's own favorites or removes it (favorites are personal:
 * a viewer may star what they can see). The change shows at once and is undone if the server
 * refuses it (the HTTP client shows the refusal).
 */
export function FavoriteButton({ itemType, itemId, name, initial, isLabelVisible = false, onChange, className }: FavoriteButtonProps) {
  const [isFavorite, setFavorite] = useState(initial);
  const [isBusy, setBusy] = useState(false);
  const pending = useRef(false);

  // A fresh loader value (after a revalidation) wins over what this button remembers.
  useEffect(() => setFavorite(initial), [initial]);

  const toggle = async () => {
    if (pending.current) return;
    pending.current = true;
    const next = !isFavorite;
    setFavorite(next);
    setBusy(true);
    const url = `/api/organize/favorites/${itemType}/${encodeURIComponent(itemId)}`;
    try {
      if (next) await http.put(url);
      else await http.delete(url);
      onChange?.(next);
    } catch {
      setFavorite(!next);
    } finally {
      pending.current = false;
      setBusy(false);
    }
  };

  const label = favoriteLabel(name, isFavorite);
  return (
    <button
      type="button"
      aria-pressed={isFavorite}
      aria-label={label}
      aria-busy={isBusy || undefined}
      title={label}
      data-testid="favorite-button"
      onClick={() => void toggle()}
      className={clsx(
        "inline-flex items-center gap-1.5 rounded-md p-1 text-sm font-medium",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
        isFavorite ? "text-amber-700 hover:bg-amber-50" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
        className,
      )}
    >
      <span aria-hidden="true" className="material-icons select-none text-[20px] leading-none">
        {isFavorite ? "star" : "star_border"}
      </span>
      {/* Shown, the words are the label itself: what is read is what is seen (WCAG 2.5.3). */}
      {isLabelVisible ? <span aria-hidden="true">{label}</span> : null}
    </button>
  );
}
