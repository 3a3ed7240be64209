// npm run ops -- <command>: operator commands against D1 (local by default, --remote for the
// deployed database). `npm run ops -- --help` lists them; the helpers live in ops-lib.mjs.
import {
  OpsError,
  USAGE,
  addonChangeFromInput,
  applyLocalMigrations,
  createMember,
  formatTierTable,
  limitChangeFromInput,
  listTiers,
  memberFromInput,
  normaliseEmail,
  normaliseTier,
  parseOpsArgs,
  setMemberAddon,
  setMemberTier,
  setTierLimit,
} from "./ops-lib.mjs";

function where(target) {
  if (target.remote) return `the remote D1${target.env ? ` (env ${target.env})` : ""}`;
  return `the local D1${target.persistTo ? ` in ${target.persistTo}` : ""}`;
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseOpsArgs(argv);
  } catch (error) {
    if (!(error instanceof OpsError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 1;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }

  const { command, input, target, skipMigrations } = parsed;
  // Refuse bad input before touching any database.
  if (command === "user:create") memberFromInput(input);
  if (command === "user:set-tier") {
    normaliseEmail(input.email);
    normaliseTier(input.tier);
  }
  if (command === "user:set-addon") addonChangeFromInput(input);
  if (command === "tier:set-limit") limitChangeFromInput(input);
  if (!target.remote && !skipMigrations) await applyLocalMigrations(target);

  if (command === "user:create") {
    const member = await createMember(input, target);
    if (!member.created) throw new OpsError(`A member with the e-mail ${member.email} already exists in ${where(target)}.`);
    console.log(`Created member ${member.email} in ${where(target)}: name "${member.name}", tier ${member.tier}, e-mail verified, id ${member.id}.`);
    return 0;
  }

  if (command === "user:set-tier") {
    const result = await setMemberTier(input, target);
    if (!result.updated) throw new OpsError(`No member has the e-mail ${result.email} in ${where(target)}.`);
    console.log(`Set the tier of ${result.email} to ${result.tier} in ${where(target)}.`);
    return 0;
  }

  if (command === "user:set-addon") {
    const result = await setMemberAddon(input, target);
    if (!result.found) throw new OpsError(`No member has the e-mail ${result.email} in ${where(target)}.`);
    if (result.quantity > 0) console.log(`Set the ${result.addon} addon of ${result.email} to ${result.quantity} in ${where(target)}.`);
    else if (result.removed) console.log(`Removed the ${result.addon} addon of ${result.email} in ${where(target)}.`);
    else console.log(`${result.email} had no ${result.addon} addon in ${where(target)}; nothing to remove.`);
    return 0;
  }

  if (command === "tier:set-limit") {
    const result = await setTierLimit(input, target);
    if (!result.updated) throw new OpsError(`The tier ${result.tier} has no row in ${where(target)}: apply the migrations first.`);
    const shown = result.value === -1 ? "unlimited (-1)" : String(result.value);
    console.log(`Set ${result.limit} of the ${result.tier} tier to ${shown} in ${where(target)}.`);
    return 0;
  }

  if (command === "tier:list") {
    console.log(formatTierTable(await listTiers(target)));
    return 0;
  }

  throw new Error(`unhandled command ${command}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof OpsError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
