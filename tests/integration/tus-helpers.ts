import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { partSizeFor } from "~/features/files/files.constants";
import { origin, type AuthClient } from "./helpers";

/** The tus endpoint (/api/uploads) as a client drives it: creation, part-sized PATCHes. */

export type Call = { method: string; path: string; headers?: Record<string, string>; body?: BodyInit | null; client?: AuthClient | null; tus?: boolean };

export async function call({ method, path, headers = {}, body = null, client = null, tus = true }: Call): Promise<Response> {
  return exports.default.fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(client ? { cookie: client.jar.header(), "x-csrf-token": client.csrfToken } : {}),
      origin,
      "x-requested-with": "XMLHttpRequest",
      ...(tus ? { "tus-resumable": "1.0.0" } : {}),
      ...headers,
    },
    body,
  });
}

const b64 = (value: string) => btoa(String.fromCharCode(...new TextEncoder().encode(value)));

export function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(",");
}

export async function create(client: AuthClient, options: { folderId: string; name: string; length: number; relativePath?: string }): Promise<Response> {
  const fields: Record<string, string> = { filename: options.name, folderId: options.folderId };
  if (options.relativePath !== undefined) fields.relativePath = options.relativePath;
  return call({ method: "POST", path: "/api/uploads", client, headers: { "upload-length": String(options.length), "upload-metadata": metadata(fields) } });
}

export async function createOk(client: AuthClient, options: { folderId: string; name: string; length: number; relativePath?: string }): Promise<string> {
  const response = await create(client, options);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.headers.get("location")!;
}

export async function patch(client: AuthClient, location: string, offset: number, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<Response> {
  return call({
    method: "PATCH",
    path: location,
    client,
    headers: { "upload-offset": String(offset), "content-type": "application/offset+octet-stream", "content-length": String(body.byteLength), ...headers },
    body,
  });
}

/** Deterministic bytes (not all zero, so parts differ). */
export function bytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}

export async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Uploads a whole file in part-sized PATCHes; returns the file id. */
export async function upload(client: AuthClient, folderId: string, name: string, content: Uint8Array<ArrayBuffer>, relativePath?: string): Promise<string> {
  const location = await createOk(client, { folderId, name, length: content.byteLength, relativePath });
  const partSize = partSizeFor(content.byteLength);
  let offset = 0;
  let response: Response | null = null;
  do {
    const chunk = content.slice(offset, Math.min(content.byteLength, offset + partSize));
    response = await patch(client, location, offset, chunk);
    expect(response.status, await response.clone().text()).toBe(204);
    offset = Number(response.headers.get("upload-offset"));
  } while (offset < content.byteLength);
  return response.headers.get("strongroom-file-id")!;
}

