// Sealing a 50-page PDF (issue 38), measured in Node 22 with the app's own seal code (run by
// `npx tsx`, which reads the tsconfig's "~/" paths): the median time of three seals and the
// largest heap and RSS growth seen while sealing, as JSON on stdout. workerd does not report its
// memory; Node's figures show how far a seal is from the Worker's 128 MB.
import { sealPdf } from "~/features/signatures/seal-pdf.server";
import { signingIdentity } from "~/features/signatures/signing-identity.server";
import { measureRuns } from "./measure-runs";
import { makePdf } from "./pdf-fixture.mjs";
import { createSelfSignedIdentity } from "../signing-identity.mjs";

const pages = Number(process.argv[2] ?? 50);
const original = new Uint8Array(makePdf({ pages, padBytesPerPage: 100_000, tree: "balanced", text: "A contract page with terms and conditions." }));
const { key, cert } = await createSelfSignedIdentity({ commonName: "Bench seal" });
const identity = await signingIdentity({ SIGNING_KEY: key, SIGNING_CERT: cert });
const field = (id: string, roleId: string, x: number) => ({ id, type: "signature" as const, roleId, page: pages - 1, x, y: 0.8, w: 0.3, h: 0.07, required: true, label: "", options: [] });
const input = {
  original,
  envelopeId: "bench",
  title: "Bench contract",
  sender: { name: "Bench", email: "bench@example.com" },
  fields: [field("a", "a", 0.1), field("b", "b", 0.55)],
  values: { a: "svg:M20 150L120 40L200 160L300 50", b: "typed:Grace Hopper" },
  recipients: ["Ada", "Grace"].map((name) => ({ name, email: `${name.toLowerCase()}@example.com`, kind: "Signer", verification: "E-mail link", ip: "203.0.113.7", userAgent: "Bench", sentAt: new Date(), openedAt: new Date(), signedAt: new Date() })),
  events: Array.from({ length: 12 }, (_, index) => ({ at: new Date(), who: "Ada", what: `event ${index}`, ip: "203.0.113.7" })),
  completedAt: new Date(),
  verifyUrl: "http://localhost/signatures/verify",
  identity,
};

const measured = await measureRuns(async () => (await sealPdf(input)).bytes.byteLength);
console.log(JSON.stringify({ pages, inputBytes: original.byteLength, ...measured }));
