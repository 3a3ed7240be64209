/** The 36-character hex-and-dash ids of spec §2 paths (/dataroom/{id}); features take it from here. */
export const ID36_PATTERN = /^[0-9a-fA-F-]{36}$/;

/**
 * Named routes to URLs (spec §2, §5). Parameters are written `{name}` and each has a pattern;
 * building a route throws when a required parameter is missing or does not match it.
 * Extra parameters become the query string.
 */
const paramPatterns = {
  id: /^[A-Za-z0-9-]{1,64}$/,
  dataroomId: ID36_PATTERN,
  token: /^[A-Za-z0-9_-]{16,128}$/,
  folderUid: /^[A-Za-z0-9-]{1,64}$/,
  op: /^[a-z-]{1,40}$/,
} as const satisfies Record<string, RegExp>;

export const namedRoutes = {
  home: "/",
  login: "/login",
  "privacy-policy": "/privacy-policy",
  ui: "/ui",
  "forms.index": "/forms",
  "forms.create": "/forms/create",
  "forms.edit": "/forms/{id}/edit",
  "forms.preview": "/forms/{id}/preview",
  "forms.view": "/forms/{id}/view",
  "submissions.shared": "/submissions/shared/{token}",
  "datarooms.index": "/datarooms",
  "dataroom.show": "/dataroom/{dataroomId}",
  "dataroom.activities": "/dataroom/{dataroomId}/activities",
  "dataroom.permissions": "/dataroom/{dataroomId}/permissions",
  "dataroom.settings": "/dataroom/{dataroomId}/settings",
  "dataroom.batch": "/dataroom/{dataroomId}/batch/{op}",
  "folder.update": "/folder/{folderUid}",
  "folder.delete-icon": "/folder/{folderUid}/delete-icon",
  "api.datarooms": "/api/datarooms",
  "api.dataroom.permissions": "/api/datarooms/{dataroomId}/permissions",
} as const;

export type RouteName = keyof typeof namedRoutes;
type ParamName = keyof typeof paramPatterns;

type ExtractParams<Path extends string> = Path extends `${string}{${infer Param}}${infer Rest}`
  ? Param | ExtractParams<Rest>
  : never;

type QueryValue = string | number | boolean | undefined;

/** Routes without parameters take optional query values; the others require every parameter. */
export type RouteArgs<Name extends RouteName> = [ExtractParams<(typeof namedRoutes)[Name]>] extends [never]
  ? [query?: Record<string, QueryValue>]
  : [params: { [K in ExtractParams<(typeof namedRoutes)[Name]>]: string | number } & Record<string, QueryValue>];

export class RouteParameterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RouteParameterError";
  }
}

export function route<Name extends RouteName>(name: Name, ...args: RouteArgs<Name>): string {
  const template: string | undefined = namedRoutes[name];
  if (template === undefined) throw new RouteParameterError(`Unknown route: ${String(name)}`);
  const params: Record<string, QueryValue> = { ...(args[0] ?? {}) };
  const path = template.replace(/\{(\w+)\}/g, (_match, key: string) => {
    const value = params[key];
    delete params[key];
    if (value === undefined || value === null || value === "") {
      throw new RouteParameterError(`Missing required parameter "${key}" for route "${name}".`);
    }
    const text = String(value);
    const pattern = paramPatterns[key as ParamName];
    if (!pattern || !pattern.test(text)) {
      throw new RouteParameterError(`Parameter "${key}" for route "${name}" does not match its pattern: "${text}".`);
    }
    return encodeURIComponent(text);
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Spec §2: /dataroom/* is left to server-driven navigation; the client router skips it. */
export function isServerNavigatedPath(pathname: string): boolean {
  return pathname.startsWith("/dataroom/");
}
