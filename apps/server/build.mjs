// Bundles the server into dist/main.js: our code and the @vigil/* workspace packages (which export TypeScript
// source) go in; every npm dependency stays external and is loaded from node_modules at run time.
import { cp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const WORKSPACES = { '@vigil/contracts': 'packages/contracts', '@vigil/sandbox': 'packages/sandbox' };

async function readPackage(folder) {
  return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
}

/** The npm dependencies of the server and of each workspace package it bundles (and theirs). */
async function externalPackages() {
  const external = new Set();
  const seen = new Set();
  const visit = async (folder) => {
    if (seen.has(folder)) return;
    seen.add(folder);
    const pkg = await readPackage(folder);
    for (const name of Object.keys({
      ...pkg.dependencies,
      ...pkg.peerDependencies,
      ...pkg.optionalDependencies,
    })) {
      if (WORKSPACES[name]) await visit(join(root, WORKSPACES[name]));
      else if (name.startsWith('@vigil/'))
        throw new Error(`${name} is not known to build.mjs; add its folder.`);
      else external.add(name);
    }
  };
  await visit(here);
  return [...external].flatMap((name) => [name, `${name}/*`]);
}

const dist = join(here, 'dist');
await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  outfile: join(dist, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: await externalPackages(),
  // Bundled CommonJS would call require(), which ES modules lack; this gives it one.
  banner: {
    js: "import { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// The migrator reads them beside the bundle (see MIGRATIONS_FOLDER in src/db/database.ts).
await cp(join(here, 'src', 'db', 'migrations'), join(dist, 'migrations'), { recursive: true });
console.log('built apps/server/dist/main.js');
