import { z } from "zod";

/** Spec §9: the five toast types. Browser-safe, shared by the flash cookie and the client. */
export const toastTypes = ["success", "error", "warning", "info", "default"] as const;
export type ToastType = (typeof toastTypes)[number];

export const flashToastSchema = z.object({
  type: z.enum(toastTypes).default("default"),
  message: z.string().min(1).max(500),
});
export type FlashToast = z.infer<typeof flashToastSchema>;

/** The toast helper messages of spec §8. */
export const toastMessages = {
  updated: (thing: string) => `${thing} Updated Successfully.`,
  created: (thing: string) => `${thing} Created Successfully.`,
  deleted: (thing: string) => `${thing} Deleted Successfully.`,
};
