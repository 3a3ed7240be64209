import type { RecipientKind, SignField } from "./signature-fields";
import type { LINK_CLOSED_MESSAGES } from "./signatures.constants";

/** What the signing page receives (issue 38): shared by the server and the page (types only). */

export type ClosedReason = keyof typeof LINK_CLOSED_MESSAGES;

export type SigningView = {
  envelope: { title: string; message: string; senderName: string; pageCount: number; documentName: string; signingOrder: "parallel" | "sequential"; expiresAt: string | null };
  recipient: { name: string; email: string; kind: RecipientKind };
  /** Only this recipient's fields: the page never learns another person's. */
  fields: SignField[];
};

export type SigningState =
  | ({ state: "open"; needsCode: boolean } & SigningView)
  | ({ state: "waiting"; waitingFor: string; message: string } & SigningView)
  | ({ state: "closed"; reason: ClosedReason; message: string; signedDownload: boolean } & SigningView);

