import type { ServiceContext } from "~/lib/service-context.server";
import type { ItemType } from "./trash.constants";
import { findTakenNames } from "./trash.queries.server";

/** How many variants of a name are tried before a random one is used. */
const NAME_ATTEMPTS = 25;

/**
 * Free names for items landing in one folder (a restore, a move): each item keeps its name when
 * it is free there, else the first free variant (`variant(name, type, attempt)`, attempt 0 being
 * the name itself). One query for all the items; `claimed` holds the names already handed out in
 * this call, so two items never get the same one.
 */
export async function freeNames(
  ctx: ServiceContext,
  type: ItemType,
  parentId: string,
  names: readonly string[],
  variant: (name: string, type: ItemType, attempt: number) => string,
  claimed: Set<string>,
): Promise<string[]> {
  const candidates = names.map((name) => Array.from({ length: NAME_ATTEMPTS }, (_, attempt) => variant(name, type, attempt)));
  const taken = await findTakenNames(ctx.db, type, parentId, [...new Set(candidates.flat())]);
  return candidates.map((list, index) => {
    const name = list.find((candidate) => !taken.has(candidate) && !claimed.has(candidate)) ?? variant(names[index]!, type, NAME_ATTEMPTS + Math.floor(Math.random() * 1_000_000));
    claimed.add(name);
    return name;
  });
}
