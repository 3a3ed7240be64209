import { createContext } from "react";
import type { PublicUser } from "~/features/auth/auth.types";

/**
 * What every page frame shows around the page, from the root loader: the member (or null) and
 * whether the development tools exist. The root provides it; the public and workspace layouts read
 * it (they cannot import the root module: that would be an import cycle).
 */
export type FrameData = { user: PublicUser | null; devTools: boolean };

export const FrameContext = createContext<FrameData>({ user: null, devTools: false });
