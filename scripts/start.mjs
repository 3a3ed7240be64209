// npm start: Strongroom on local D1/R2/Durable Objects/Queues (all embedded in workerd, state in
// .wrangler/state, or STATE_DIR). Creates .dev.vars from the example, applies migrations, seeds the
// demo member, starts the dev server and, the first time, fills the demo member's space with
// sample content through the app's own API (scripts/seed-demo.mjs).
import { spawn } from "node:child_process";
import { ensureDevVars, quietWranglerEnv } from "./lib.mjs";
import { DEMO_GUEST, DEMO_MEMBER, applyLocalMigrationsOrExit, createMember } from "./ops-lib.mjs";
import { seedDemoContent } from "./seed-demo.mjs";

await ensureDevVars();
const stateDir = process.env.STATE_DIR;
const target = { remote: false, ...(stateDir ? { persistTo: stateDir } : {}) };

await applyLocalMigrationsOrExit(target);

// The demo member (tier business, so every module is open; e-mail verified), created once: an existing account is left as it
// is, and a failure here never stops the dev server.
let demoCreated = false;
try {
  const demo = await createMember(DEMO_MEMBER, target);
  demoCreated = demo.created;
  if (demo.created) await createMember(DEMO_GUEST, target);
  console.log(demo.created ? "\nCreated the demo member and the demo guest." : "\nThe demo member already exists.");
} catch (error) {
  console.warn(`\nCould not seed the demo member: ${error instanceof Error ? error.message : String(error)}`);
}
console.log(`Demo account: ${DEMO_MEMBER.email} / ${DEMO_MEMBER.password}`);
console.log(`Demo guest (in the demo's data room): ${DEMO_GUEST.email} / ${DEMO_GUEST.password}`);

const port = process.env.PORT ?? "5173";
const baseURL = `http://localhost:${port}`;
console.log(`\nStarting Strongroom at ${baseURL}/ …\n`);
const server = spawn("npx", ["react-router", "dev", "--port", port, "--strictPort", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ...quietWranglerEnv },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

if (demoCreated) {
  try {
    await waitForHealth(baseURL);
    const seeded = await seedDemoContent(baseURL);
    console.log(`\nThe demo member's space has sample content: ${seeded.folders} folders, ${seeded.files} files, ${seeded.trashed} in the trash, and ${seeded.datarooms} data room with ${seeded.guests} guest, a share link (/s/falcon-teaser), a public gallery (/public-gallery/site-photos), a receive page (/r/falcon-documents), a form with ${seeded.submissions} submissions (/forms) and ${seeded.signatures} documents sent for signature.\n`);
  } catch (error) {
    console.warn(`\nCould not add the demo member's sample content: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function waitForHealth(url) {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the dev server did not answer /api/health within 2 minutes");
}
