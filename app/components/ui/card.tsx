import type { ComponentProps } from "react";
import { clsx } from "clsx";

/** A bordered surface grouping related content. */
export function Card({ className, ...rest }: ComponentProps<"div">) {
  return <div {...rest} className={clsx("rounded-lg border border-slate-200 bg-white shadow-sm", className)} />;
}

export function CardHeader({ className, ...rest }: ComponentProps<"div">) {
  return <div {...rest} className={clsx("space-y-1 border-b border-slate-200 px-5 py-4", className)} />;
}

export const cardTitleLevels = ["h2", "h3", "h4"] as const;
export type CardTitleLevel = (typeof cardTitleLevels)[number];

/** The card's heading; pick the level that fits the page outline (h3 by default). */
export function CardTitle({ as: Heading = "h3", className, ...rest }: ComponentProps<"h3"> & { as?: CardTitleLevel }) {
  return <Heading {...rest} className={clsx("text-base font-semibold text-slate-900", className)} />;
}

export function CardDescription({ className, ...rest }: ComponentProps<"p">) {
  return <p {...rest} className={clsx("text-sm text-slate-600", className)} />;
}

export function CardContent({ className, ...rest }: ComponentProps<"div">) {
  return <div {...rest} className={clsx("px-5 py-4 text-sm text-slate-700", className)} />;
}

export function CardFooter({ className, ...rest }: ComponentProps<"div">) {
  return (
    <div
      {...rest}
      className={clsx(
        "flex items-center justify-end gap-2 rounded-b-lg border-t border-slate-200 bg-slate-50 px-5 py-3",
        className,
      )}
    />
  );
}
