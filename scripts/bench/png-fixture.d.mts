// Types for png-fixture.mjs (plain JavaScript run by Node), for the e2e specs that import it.
export function makePng(width: number, height: number, rowColour: (y: number) => [number, number, number]): Buffer;
export function solidPng(width: number, height: number, colour: [number, number, number]): Buffer;
