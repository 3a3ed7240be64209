export type SelfSignedIdentity = { key: string; cert: string };
export function createSelfSignedIdentity(options?: { commonName?: string; years?: number; now?: Date }): Promise<SelfSignedIdentity>;
export function devVarsLines(identity: SelfSignedIdentity): string;
