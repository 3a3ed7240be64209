// Stands in for `virtual:react-router/server-build` in the workerd test project (see STACK.md).
// Any request that reaches React Router in those tests fails loudly instead of rendering.
export const routes = {};
export const entry = {
  module: {
    default: () => new Response("React Router is not built in integration tests", { status: 501 }),
  },
};
export const assets = { entry: { module: "", imports: [] }, routes: {}, url: "", version: "test" };
export const future = {};
export const basename = "/";
export const publicPath = "/";
export const assetsBuildDirectory = "build/client";
export const isSpaMode = false;
export const ssr = true;
export const prerender = [];
export const routeDiscovery = { mode: "initial" };
