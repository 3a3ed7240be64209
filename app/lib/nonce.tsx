import { createContext, useContext, type ReactNode } from "react";

/** The per-request CSP nonce, provided by entry.server (and read back by entry.client). */
const NonceContext = createContext<string>("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
