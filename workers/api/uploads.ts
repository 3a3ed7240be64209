import { Hono, type Context } from "hono";
import { MAX_UPLOAD_SIZE } from "~/features/files/files.constants";
import {
  createUpload,
  getUploadState,
  uploaderForGrant,
  receiveChunk,
  terminateUpload,
  TUS_EXTENSIONS,
  TUS_VERSION,
  UploadError,
  type UploadState,
} from "~/features/files/uploads.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/**
 * /api/uploads: the tus 1.0 endpoint (core, creation, termination) for the file manager's
 * uploads. Every route needs a signed-in member, or a visitor's grant for one sealed answer file
 * (Strongroom-Upload-Grant); unsafe methods pass the CSRF check like any other request (the
 * browser sends X-CSRF-TOKEN and X-Requested-With).
 */

const TUS_HEADERS_CHECKED = new Set(["POST", "PATCH", "DELETE"]);

function stateHeaders(state: UploadState): Record<string, string> {
  const headers: Record<string, string> = {
    "Upload-Offset": String(state.offset),
    "Upload-Length": String(state.length),
    "Strongroom-Part-Size": String(state.partSize),
  };
  if (state.fileId) headers["Strongroom-File-Id"] = state.fileId;
  else headers["Upload-Expires"] = state.expiresAt.toUTCString();
  return headers;
}

function uploadId(c: Context<AppEnv>): string {
  return c.req.param("id") ?? "";
}

/** A visitor's grant for one sealed answer file (issue 23), sent instead of a session. */
export const UPLOAD_GRANT_HEADER = "Strongroom-Upload-Grant";

/** Who uploads: the signed-in member, or (with a grant and no session) the request's owner, for that file only. */
async function uploader(c: Context<AppEnv>, request: { uploadId?: string; metadata?: string }): Promise<string> {
  const grant = c.req.header(UPLOAD_GRANT_HEADER);
  if (!grant || c.get("actor")) return requireApiActor(c).userId;
  return uploaderForGrant(apiServiceContext(c), grant, request);
}

export const uploadsApi = new Hono<AppEnv>()
  .use(noStore)
  .use(async (c, next) => {
    if (!c.req.header(UPLOAD_GRANT_HEADER)) requireApiActor(c);
    if (TUS_HEADERS_CHECKED.has(c.req.method) && c.req.header("Tus-Resumable") !== TUS_VERSION) {
      return c.json({ message: `This server speaks tus ${TUS_VERSION}: send the Tus-Resumable: ${TUS_VERSION} header.`, code: "PRECONDITION_FAILED" }, 412, {
        "Tus-Resumable": TUS_VERSION,
        "Tus-Version": TUS_VERSION,
      });
    }
    await next();
    c.res.headers.set("Tus-Resumable", TUS_VERSION);
    // Refusals that tell the client where it stands (the offset, the part size).
    if (c.error instanceof UploadError) for (const [name, value] of Object.entries(c.error.headers)) c.res.headers.set(name, value);
  })
  .options("/", (c) =>
    c.body(null, 204, {
      "Tus-Version": TUS_VERSION,
      "Tus-Extension": TUS_EXTENSIONS,
      "Tus-Max-Size": String(MAX_UPLOAD_SIZE),
    }),
  )
  .post("/", async (c) => {
    const userId = await uploader(c, { metadata: c.req.header("Upload-Metadata") });
    const state = await createUpload(apiServiceContext(c), userId, {
      uploadLength: c.req.header("Upload-Length"),
      deferLength: c.req.header("Upload-Defer-Length"),
      metadata: c.req.header("Upload-Metadata"),
    });
    return c.body(null, 201, { Location: `/api/uploads/${state.id}`, ...stateHeaders(state) });
  })
  // HEAD is answered by this GET route (Hono runs GET for HEAD and drops the body).
  .get("/:id", async (c) => {
    const userId = await uploader(c, { uploadId: uploadId(c) });
    const state = await getUploadState(apiServiceContext(c), userId, uploadId(c));
    return c.json({ offset: state.offset, length: state.length, partSize: state.partSize, fileId: state.fileId, sha256: state.sha256 ?? null }, 200, stateHeaders(state));
  })
  .patch("/:id", async (c) => {
    const userId = await uploader(c, { uploadId: uploadId(c) });
    const state = await receiveChunk(apiServiceContext(c), userId, uploadId(c), {
      offset: c.req.header("Upload-Offset"),
      contentLength: c.req.header("Content-Length"),
      contentType: c.req.header("Content-Type"),
      body: c.req.raw.body,
    });
    return c.body(null, 204, stateHeaders(state));
  })
  .delete("/:id", async (c) => {
    const userId = await uploader(c, { uploadId: uploadId(c) });
    await terminateUpload(apiServiceContext(c), userId, uploadId(c));
    return c.body(null, 204);
  });
