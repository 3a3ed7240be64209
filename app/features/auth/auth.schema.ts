import { z } from "zod";

import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./auth.constants";

/**
 * Account input rules, shared by the pages' actions and the JSON endpoints. Password policy
 * (S10): at least 8 characters, up to 128, no composition rules, never truncated; the
 * common-password check runs on the server (it needs the list).
 */
export { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SESSION_LIFETIME_CHOICES } from "./auth.constants";

export const emailSchema = z
  .string({ error: "Enter your e-mail address." })
  .trim()
  .min(1, "Enter your e-mail address.")
  .max(254, "That e-mail address is too long.")
  .pipe(z.email({ error: "Enter a valid e-mail address, like name@example.com." }))
  .transform((email) => email.toLowerCase());

export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

/** A password being checked (sign-in, confirmation): never validated beyond presence and a sane bound. */
export const currentPasswordSchema = z
  .string({ error: "Enter your password." })
  .min(1, "Enter your password.")
  .max(1024, "That password is too long.");

export const nameSchema = z
  .string({ error: "Enter your name." })
  .trim()
  .min(1, "Enter your name.")
  .max(NAME_MAX_LENGTH, `Use at most ${NAME_MAX_LENGTH} characters.`);

export const loginSchema = z.object({ email: emailSchema, password: currentPasswordSchema });

export const registerSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});

export const otpCodeSchema = z
  .string({ error: "Enter the code." })
  .trim()
  .transform((code) => code.replace(/[\s-]/g, ""))
  .pipe(z.string().min(6, "Enter the 6-digit code.").max(32, "That code is too long."));

export const TIERS = ["free", "basic", "pro", "business", "custom"] as const;
export const tierSchema = z.enum(TIERS, { error: `Tier must be one of: ${TIERS.join(", ")}.` });
