// Types for png-fixture.mjs (plain JavaScript run by Node), for the e2e spec that imports it.
export function solidPng(width: number, height: number, colour: [number, number, number]): Buffer;
