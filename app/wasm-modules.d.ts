/** WebAssembly imported as a module: compiled when the Worker is deployed (workerd forbids compiling at run time). */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
