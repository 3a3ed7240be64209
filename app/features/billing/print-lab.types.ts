/**
 * The print lab behind print orders (issue 43, docs/billing.md): one interface, so a lab is one
 * driver (the development lab, Prodigi). `submit` hands a paid order over and answers the lab's id
 * (or throws LabRefusal: the order is then refunded); it is idempotent by the order's reference, so
 * a retry after a lost answer makes no second order. `read` answers where the lab stands, which is
 * all the app trusts when the lab calls back. `cancel` stops what the app gave up on (a failure the
 * lab reported but did not cancel itself); it never throws for an order that is already over.
 */
export type LabOrderState = { status: "received" | "shipped" | "failed"; trackingUrl: string | null; failure: string | null };

export type LabOrderInput = {
  /** The print order's id: the lab's merchant reference and idempotency key. */
  reference: string;
  /** Where the lab calls back: the app's address for this order, signed (the call only says "look again"). */
  callbackUrl: string;
  recipient: { name: string; email: string; address: { line1: string; line2?: string; city: string; postalCode: string; country: string } };
  currency: string;
  /** Each picture with a signed, time-limited address of its original the lab downloads it from. */
  items: { fileId: string; name: string; size: string; paper: string; quantity: number; unitCents: number; assetUrl: string }[];
};

export type PrintLab = {
  /** Refuses, before anyone pays, what this lab cannot make (a size and paper it has no product for). */
  check(items: readonly { size: string; paper: string }[]): void;
  submit(input: LabOrderInput): Promise<{ labOrderId: string }>;
  read(labOrderId: string): Promise<LabOrderState>;
  cancel(labOrderId: string): Promise<void>;
};

/** The lab said no to an order (it is then refunded); the message is for the buyer. */
export class LabRefusal extends Error {}
