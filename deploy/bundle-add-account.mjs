// Bundles scripts/add-account.ts (`npm run add-account`) into one ESM file beside the server bundle,
// apps/server/dist/add-account.mjs, for the container image (deploy/Dockerfile): the image has no tsx
// and no TypeScript sources, and the operator creates accounts in a running pod with
//   kubectl exec -i deploy/anybodyqa-server -- node apps/server/dist/add-account.mjs --email … --name …
// (docs/kubernetes.md §2). Bundled like the server itself (apps/server/build.mjs): our workspace packages
// are inlined, every other npm dependency stays external and loads from node_modules.
// Usage: node deploy/bundle-add-account.mjs [output file]
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'apps', 'server', 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@aqa/'));
const outfile = resolve(process.argv[2] ?? join(root, 'apps', 'server', 'dist', 'add-account.mjs'));

await build({
  entryPoints: [join(root, 'scripts', 'add-account.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  // As apps/server/build.mjs: external CommonJS packages may be reached through esbuild's require shim.
  banner: {
    js: "import { createRequire as __aqaCreateRequire } from 'node:module';\nconst require = __aqaCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
process.stdout.write(`Built ${outfile}\n`);
