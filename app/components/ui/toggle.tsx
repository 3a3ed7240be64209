import type { ReactNode } from "react";
import * as SwitchPrimitive from "@radix-ui/react-switch";
import { clsx } from "clsx";
import { FieldDescription, joinIds, useFieldIds } from "./input";

export type ToggleProps = {
  label: ReactNode;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  description?: ReactNode;
  isDisabled?: boolean;
  name?: string;
  value?: string;
  id?: string;
  className?: string;
};

/** A labelled on/off switch (Radix Switch, role "switch"): Space or Enter flips it. */
export function Toggle({
  label,
  checked,
  defaultChecked,
  onCheckedChange,
  description,
  isDisabled,
  name,
  value,
  id,
  className,
}: ToggleProps) {
  const ids = useFieldIds(id);
  return (
    <div className={clsx("flex items-start justify-between gap-4", className)}>
      <div className="space-y-1">
        <label
          htmlFor={ids.controlId}
          className={clsx("block text-sm font-medium text-slate-900", isDisabled ? "cursor-not-allowed" : "cursor-pointer")}
        >
          {label}
        </label>
        {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
      </div>
      <SwitchPrimitive.Root
        id={ids.controlId}
        checked={checked}
        defaultChecked={defaultChecked}
        onCheckedChange={onCheckedChange}
        disabled={isDisabled}
        name={name}
        value={value}
        aria-describedby={joinIds(description ? ids.descriptionId : null)}
        className={clsx(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
          "data-[state=checked]:bg-brand-600 data-[state=unchecked]:bg-slate-500",
          "disabled:cursor-not-allowed disabled:opacity-60",
        )}
      >
        <SwitchPrimitive.Thumb className="pointer-events-none block h-5 w-5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
      </SwitchPrimitive.Root>
    </div>
  );
}
