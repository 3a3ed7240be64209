import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DataRoom } from "~durable-objects/data-room";
import { origin, testEnv } from "./helpers";

const roomId = "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";

/** Opens a socket straight on the object (the router's authentication is tested below). */
async function openSocket(name: string) {
  const stub = testEnv.DATA_ROOM.getByName(name);
  return stub.fetch(`${origin}/parties/data-room/${name}`, {
    headers: { Upgrade: "websocket", "x-partykit-room": name },
  });
}

describe("the DataRoom Durable Object", () => {
  it("answers RPC: a fresh room has no open sockets", async () => {
    const stub = testEnv.DATA_ROOM.getByName(roomId);
    expect(await stub.presence()).toEqual({ connections: 0 });
  });

  it("is a SQLite-backed object", async () => {
    const stub = testEnv.DATA_ROOM.getByName(roomId);
    await runInDurableObject(stub, async (instance: DataRoom, state) => {
      expect(instance).toBeInstanceOf(DataRoom);
      expect(state.storage.sql.exec("select 1 as one").one().one).toBe(1);
    });
  });

  it("accepts a socket, tells it the presence count, and delivers published events", async () => {
    const response = await openSocket(roomId);
    expect(response.status).toBe(101);
    const socket = response.webSocket!;
    const received: unknown[] = [];
    socket.addEventListener("message", (event) => received.push(JSON.parse(event.data as string)));
    socket.accept();
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0]).toEqual({ type: "presence", connections: 1 });

    const stub = testEnv.DATA_ROOM.getByName(roomId);
    expect(await stub.publish({ name: "file.uploaded", data: { fileId: "f1" } })).toEqual({ delivered: 1 });
    await expect.poll(() => received.length).toBeGreaterThan(1);
    expect(received[1]).toMatchObject({ type: "event", name: "file.uploaded", data: { fileId: "f1" } });
    socket.close();
  });

  it("answers a message it does not understand with an error, not a crash", async () => {
    const name = "1f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b";
    const socket = (await openSocket(name)).webSocket!;
    const received: { type: string }[] = [];
    socket.addEventListener("message", (event) => received.push(JSON.parse(event.data as string)));
    socket.accept();
    socket.send("{ definitely not json");
    await expect.poll(() => received.some((m) => m.type === "error")).toBe(true);
    socket.close();
  });
});

describe("realtime routing", () => {
  it("refuses an anonymous socket to a data room with 401 before it reaches the object", async () => {
    const response = await exports.default.fetch(`${origin}/parties/data-room/${roomId}`, { headers: { Upgrade: "websocket" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("answers 404 for a room id that is not a 36-character id", async () => {
    for (const bad of ["undefined", "null", "abc", "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5bXX", "%3Cscript%3E"]) {
      const response = await exports.default.fetch(`${origin}/parties/data-room/${bad}`, { headers: { Upgrade: "websocket" } });
      expect(response.status).toBe(404);
    }
  });

  it("does not expose plain HTTP requests to a room", async () => {
    const response = await exports.default.fetch(`${origin}/parties/data-room/${roomId}`);
    expect(response.status).toBe(404);
  });
});
