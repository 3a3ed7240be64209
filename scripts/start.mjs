// npm start: Strongroom on local D1/R2/Durable Objects/Queues (all embedded in workerd, state in
// .wrangler/state). Creates .dev.vars from the example, applies migrations, seeds the demo
// member, starts the dev server.
import { ensureDevVars, run } from "./lib.mjs";
import { DEMO_MEMBER, createMember } from "./ops-lib.mjs";

ensureDevVars();

const migrate = await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"]);
if (migrate.code !== 0) {
  console.error("Applying the D1 migrations to the local database failed (see above).");
  process.exit(migrate.code);
}

// The demo member (tier pro, e-mail verified), created once: an existing account is left as it
// is, and a failure here never stops the dev server.
try {
  const demo = await createMember(DEMO_MEMBER, { remote: false });
  console.log(demo.created ? "\nCreated the demo member." : "\nThe demo member already exists.");
} catch (error) {
  console.warn(`\nCould not seed the demo member: ${error instanceof Error ? error.message : String(error)}`);
}
console.log(`Demo account: ${DEMO_MEMBER.email} / ${DEMO_MEMBER.password}`);

const port = process.env.PORT ?? "5173";
console.log(`\nStarting Strongroom at http://localhost:${port}/ …\n`);
const server = await run("npx", ["react-router", "dev", "--port", port, "--strictPort", ...process.argv.slice(2)]);
process.exit(server.code);
