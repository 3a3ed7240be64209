/** Whether an id from an address can be one of ours (a UUID's shape): anything else is "not found" without a query. */
export function isUuidShape(id: string): boolean {
  return /^[0-9a-f-]{36}$/.test(id);
}
