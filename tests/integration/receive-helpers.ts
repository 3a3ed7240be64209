import { expect } from "vitest";
import { send } from "./dataroom-helpers";
import { newAuthClient } from "./helpers";
import { patch } from "./tus-helpers";

/**
 * A visitor sends files through a receive page (`address`: the part after /r/), as `sender` says
 * (name, e-mail, a case request's ticket), each file's bytes uploaded in full; the submission's id.
 */
export async function sendThroughPage(address: string, sender: { name?: string; email?: string; task?: string }, files: { name: string; content: string }[]): Promise<string> {
  const visitor = await newAuthClient();
  const bodies = files.map((file) => new TextEncoder().encode(file.content));
  const submitted = await send(visitor, "POST", "/api/receive-submissions", { address, ...sender, files: files.map((file, index) => ({ name: file.name, size: bodies[index]!.byteLength })) }, { "cf-connecting-ip": visitor.ip });
  expect(submitted.status, await submitted.clone().text()).toBe(201);
  const started = await submitted.json<{ submissionId: string; grant: string; uploads: { id: string }[] }>();
  for (const [index, body] of bodies.entries()) {
    expect((await patch(visitor, `/api/uploads/${started.uploads[index]!.id}`, 0, body as Uint8Array<ArrayBuffer>, { "strongroom-upload-grant": started.grant })).status).toBe(204);
  }
  return started.submissionId;
}
