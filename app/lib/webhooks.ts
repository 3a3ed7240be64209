import { z } from "zod";

/** Where a webhook (a form's, a workflow step's) may be sent. */
const PRIVATE_HOST = /^(localhost|.*\.localhost|.*\.local|.*\.internal|\d{1,3}(\.\d{1,3}){3}|\[.*\])$/i;

/** A public https:// address: no user name or password in it, no IP address or local host name. */
export const webhookUrlSchema = z
  .string({ error: "url: the address that receives the webhook." })
  .trim()
  .max(2_000, "An address is at most 2,000 characters.")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" && !url.username && !url.password && !PRIVATE_HOST.test(url.hostname);
    } catch {
      return false;
    }
  }, "A webhook's address is a public https:// address (no user name, password, IP address or local host name).");

