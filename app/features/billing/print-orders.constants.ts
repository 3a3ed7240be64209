import type { PrintOrderStatus } from "~/db/schema/billing";

/** The print catalogue (issue 43): sizes with their price, papers with a surcharge, shipping; PRINT_CATALOGUE overrides it. */
export type PrintCatalogue = {
  currency: string;
  /** Shipping of one order, wherever it goes unless `shippingByCountry` names the country. */
  shippingCents: number;
  /** Shipping to these countries (ISO 3166 two-letter codes, upper case), in place of `shippingCents`. */
  shippingByCountry?: Record<string, number>;
  /** The only countries prints are shipped to; anywhere when absent. */
  countries?: string[];
  sizes: { id: string; label: string; cents: number }[];
  papers: { id: string; label: string; percent: number }[];
};

export const DEFAULT_PRINT_CATALOGUE: PrintCatalogue = {
  currency: "eur",
  shippingCents: 490,
  sizes: [
    { id: "10x15", label: "10 × 15 cm", cents: 90 },
    { id: "13x18", label: "13 × 18 cm", cents: 150 },
    { id: "20x30", label: "20 × 30 cm", cents: 450 },
    { id: "30x45", label: "30 × 45 cm", cents: 1200 },
  ],
  papers: [
    { id: "lustre", label: "Lustre", percent: 0 },
    { id: "matte", label: "Matte", percent: 0 },
    { id: "fine-art", label: "Fine art", percent: 50 },
  ],
};

/** What shipping to `country` costs, or null where prints are not shipped (the country is not among `countries`). */
export function shippingCentsTo(catalogue: PrintCatalogue, country: string): number | null {
  const code = country.trim().toUpperCase();
  if (catalogue.countries && !catalogue.countries.includes(code)) return null;
  return catalogue.shippingByCountry?.[code] ?? catalogue.shippingCents;
}

/** How long a finished print order keeps where it went (past the card networks' 120 days for disputes). */
export const PRINT_ADDRESS_RETENTION_DAYS = 180;

export const MAX_PRINT_COPIES = 50;
export const MAX_PRINT_ITEMS = 100;

export function unitCents(catalogue: PrintCatalogue, size: string, paper: string): number | null {
  const found = catalogue.sizes.find((candidate) => candidate.id === size);
  const finish = catalogue.papers.find((candidate) => candidate.id === paper);
  if (!found || !finish) return null;
  return Math.round((found.cents * (100 + finish.percent)) / 100);
}

export const PRINT_STATUS_LABELS: Record<PrintOrderStatus, string> = {
  created: "Waiting for payment",
  paid: "Paid",
  sent: "At the print lab",
  shipped: "Shipped",
  failed: "The lab could not print it",
  refunded: "Refunded",
  expired: "Not paid",
};

export type PrintOrderView = {
  id: string;
  status: PrintOrderStatus;
  statusLabel: string;
  name: string;
  email: string;
  address: { line1: string; line2?: string; city: string; postalCode: string; country: string };
  items: { fileId: string; name: string; size: string; paper: string; sizeLabel: string; paperLabel: string; quantity: number; unitCents: number }[];
  shippingCents: number;
  totalCents: number;
  currency: string;
  trackingUrl: string | null;
  failure: string | null;
  events: { at: string; status: PrintOrderStatus; detail: string | null }[];
  createdAt: string;
  folderId: string;
};

/** One line of the member's print orders page: their own orders, or a visitor's from a gallery they published. */
export type PrintOrderLine = {
  id: string;
  reference: string;
  createdAt: string;
  status: PrintOrderStatus;
  statusLabel: string;
  prints: number;
  totalCents: number;
  currency: string;
  /** The buyer's name (for orders from the member's galleries; their own orders are theirs). */
  buyer: string;
  gallery: string | null;
};
