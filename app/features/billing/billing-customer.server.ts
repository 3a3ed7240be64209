import { findUserById } from "~/features/auth/auth.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { findBillingAccount, insertBillingAccount, type BillingAccountRow } from "./billing.queries.server";
import { stripeFor } from "./stripe-client.server";

/** Stripe's errors as ours: a person gets a sentence, ops get the log. */
export async function callStripe<T>(ctx: ServiceContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    ctx.logger.error("Stripe call failed", { what, error: message });
    throw new AppError("SERVICE_UNAVAILABLE", "Payments are not reachable just now. Nothing was charged; please try again in a minute.");
  }
}

/** The member's Stripe customer, made on first need (one per member: an idempotency key and a unique row). */
export async function customerOf(ctx: ServiceContext, userId: string): Promise<BillingAccountRow> {
  const existing = await findBillingAccount(ctx.db, userId);
  if (existing) return existing;
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError("NOT_FOUND", "This account does not exist.");
  const customer = await callStripe(ctx, "create customer", () =>
    stripeFor(ctx).customers.create({ email: user.email, name: user.name, metadata: { user_id: userId } }, { idempotencyKey: `customer-${userId}` }),
  );
  await insertBillingAccount(ctx.db, userId, customer.id, ctx.now());
  const account = await findBillingAccount(ctx.db, userId);
  if (!account) throw new AppError("INTERNAL_ERROR", "The billing account could not be saved.");
  return account;
}

