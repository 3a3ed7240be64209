// npm scripts must run on the project's pinned Node 22 (the `node` devDependency). If npm's
// allowScripts ever blocked its install script, scripts would silently fall back to the system
// Node: this check makes that loud.
const major = Number(process.versions.node.split(".")[0]);
if (major !== 22) {
  console.error(
    `npm scripts are running on Node ${process.version}, not the project's Node 22. ` +
      "Run `npm ci` again and check that package.json's allowScripts approves the `node` package.",
  );
  process.exit(1);
}
console.log(`Node ${process.version} (project-pinned) ✓`);
