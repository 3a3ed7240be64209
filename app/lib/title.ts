export const productName = "Strongroom";

/** Every page title is "<Page name> - Strongroom" (spec §2). */
export function pageTitle(pageName: string): string {
  return `${pageName} - ${productName}`;
}

/** The `meta` export most routes need. */
export function titleMeta(pageName: string) {
  return [{ title: pageTitle(pageName) }];
}
