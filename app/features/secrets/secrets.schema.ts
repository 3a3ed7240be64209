import { z } from "zod";
import { SECRET_CIPHERTEXT_MAX_CHARS, SECRET_FILES_MAX, SECRET_MAX_VIEWS, SECRET_MIN_EXPIRY_HOURS, SECRET_TEXT_MAX_BYTES } from "./secrets.constants";

const base64url = (what: string, length?: number) => {
  const schema = z.string({ error: `${what} is missing.` }).regex(/^[A-Za-z0-9_-]+$/, `${what} is not base64url.`);
  return length ? schema.length(length, `${what} has the wrong length.`) : schema;
};

/** argon2id parameters: within what a visitor's browser can run (16–64 MiB, 1–4 passes). */
export const kdfSchema = z.object({
  alg: z.literal("argon2id", { error: "Only argon2id is supported." }),
  salt: base64url("The salt", 22),
  m: z.number().int().min(16 * 1024, "The passphrase's memory cost is too low.").max(64 * 1024, "The passphrase's memory cost is too high."),
  t: z.number().int().min(1).max(4),
  p: z.literal(1),
});

/** POST /api/secrets: what the browser sends (sealed already; the key never comes). */
export const createSecretSchema = z.object(
  {
    ciphertext: z
      .string({ error: "ciphertext is the sealed secret." })
      .max(SECRET_CIPHERTEXT_MAX_CHARS, "The secret is too long.")
      .regex(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/, "ciphertext is not a sealed secret (v1.iv.body)."),
    proof: base64url("The reveal proof", 43),
    kdf: kdfSchema.nullable().default(null),
    size: z.number().int().min(0).max(SECRET_TEXT_MAX_BYTES, `A secret holds at most ${SECRET_TEXT_MAX_BYTES / 1024} KB of text.`),
    expiresInHours: z.number({ error: "Choose when the secret expires." }).int().min(SECRET_MIN_EXPIRY_HOURS, "A secret lives at least 1 hour."),
    maxViews: z.number({ error: "Choose how many times it can be viewed." }).int().min(1, "At least 1 view.").max(SECRET_MAX_VIEWS, `At most ${SECRET_MAX_VIEWS} views.`),
    label: z.string().trim().max(120, "The label is at most 120 characters.").optional().default(""),
    /** Attached files: only their sealed sizes (names and types are inside the ciphertext). */
    files: z
      .array(z.object({ storedSize: z.number().int().min(16, "A sealed file is at least 16 bytes.") }), { error: "files must be a list." })
      .max(SECRET_FILES_MAX, `A secret carries at most ${SECRET_FILES_MAX} files.`)
      .optional()
      .default([]),
  },
  { error: "The request body must be an object." },
);

/** PATCH /api/secrets/{id}: a new expiry (hours from now) and/or views left. */
export const updateSecretSchema = z
  .object({
    expiresInHours: z.number().int().min(SECRET_MIN_EXPIRY_HOURS, "A secret lives at least 1 hour.").optional(),
    viewsLeft: z.number().int().min(1, "At least 1 view left; burn it to end it now.").max(SECRET_MAX_VIEWS, `At most ${SECRET_MAX_VIEWS} views.`).optional(),
    label: z.string().trim().max(120, "The label is at most 120 characters.").optional(),
  })
  .refine((value) => value.expiresInHours !== undefined || value.viewsLeft !== undefined || value.label !== undefined, "Change the expiry, the views left or the label.");

/** POST /api/secret-reveals: the link's token and the proof derived from its key. */
export const revealSchema = z.object({ token: z.string().max(100), proof: base64url("The reveal proof", 43) }, { error: "The request body must be an object." });

const sealedSchema = (what: string, max: number) =>
  z
    .string({ error: `${what} is missing.` })
    .max(max, `${what} is too long.`)
    .regex(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/, `${what} is not sealed (v1.iv.body).`);

/** An uncompressed P-256 public key (65 bytes) in base64url. */
const publicKeySchema = base64url("The public key", 87);

/** POST /api/secret-requests: the request's public key and its private key, wrapped in the browser. */
export const createRequestSchema = z.object(
  {
    message: z.string({ error: "Say what you are asking for." }).trim().min(1, "Say what you are asking for.").max(500, "The message is at most 500 characters."),
    label: z.string().trim().max(120, "The label is at most 120 characters.").optional().default(""),
    publicKey: publicKeySchema,
    wrappedKey: sealedSchema("The wrapped key", 1000),
    kdf: kdfSchema,
    expiresInHours: z.number({ error: "Choose how long the request stays open." }).int().min(SECRET_MIN_EXPIRY_HOURS, "A request stays open at least 1 hour."),
    maxResponses: z.number({ error: "Choose how many answers it takes." }).int().min(1, "At least 1 answer.").max(20, "At most 20 answers."),
  },
  { error: "The request body must be an object." },
);

/** POST /api/secret-request-answers: a visitor's sealed answer. */
export const answerSchema = z.object(
  {
    token: z.string().max(100),
    ephemeralKey: publicKeySchema,
    ciphertext: sealedSchema("The answer", SECRET_CIPHERTEXT_MAX_CHARS),
    size: z.number().int().min(0).max(SECRET_TEXT_MAX_BYTES, `An answer holds at most ${SECRET_TEXT_MAX_BYTES / 1024} KB of text.`),
    files: z
      .array(z.object({ storedSize: z.number().int().min(16, "A sealed file is at least 16 bytes.") }), { error: "files must be a list." })
      .max(SECRET_FILES_MAX, `An answer carries at most ${SECRET_FILES_MAX} files.`)
      .optional()
      .default([]),
  },
  { error: "The request body must be an object." },
);
