import * as AvatarPrimitive from "@radix-ui/react-avatar";
import { clsx } from "clsx";
import { initialsOf } from "./initials";

export { initialsOf };

export const avatarSizes = ["sm", "md", "lg"] as const;
export type AvatarSize = (typeof avatarSizes)[number];

const sizeClasses: Record<AvatarSize, string> = {
  sm: "h-8 w-8 text-xs",
  md: "h-10 w-10 text-sm",
  lg: "h-14 w-14 text-lg",
};

export type AvatarProps = {
  /** The person's name: the accessible name, and the source of the initials. */
  name: string;
  /** A picture; while it loads or when it fails, the initials show instead. */
  src?: string;
  size?: AvatarSize;
  className?: string;
};

/** A person's picture, or their initials when there is no picture (Radix Avatar). */
export function Avatar({ name, src, size = "md", className }: AvatarProps) {
  return (
    <AvatarPrimitive.Root
      role="img"
      aria-label={name}
      data-size={size}
      className={clsx(
        "relative inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full bg-brand-100 align-middle",
        sizeClasses[size],
        className,
      )}
    >
      {src ? <AvatarPrimitive.Image src={src} alt="" className="h-full w-full object-cover" /> : null}
      {/* A short delay avoids flashing the initials while a fast picture loads. */}
      <AvatarPrimitive.Fallback
        aria-hidden="true"
        delayMs={src ? 300 : undefined}
        className="font-semibold text-brand-900"
      >
        {initialsOf(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
