// `wrangler types` reads secret names from .dev.vars: make sure it exists (from the example).
import { ensureDevVars } from "./lib.mjs";

await ensureDevVars();
