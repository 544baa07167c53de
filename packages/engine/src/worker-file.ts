import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * Where a worker thread's entry bundle is, for the load run (run.ts, dist/worker.mjs) and the
 * functional run (functional/functional-run.ts, dist/functional-worker.mjs) alike: worker threads
 * cannot load TypeScript, so it is always a bundle that build.mjs writes.
 */

/** Builds packages/engine/dist (when stale) through the package's build.mjs and returns dist/{file}. */
async function builtWorker(buildScript: URL, file: string): Promise<URL> {
  const mod = (await import(buildScript.href)) as { ensureBuilt: () => Promise<string> };
  const dist = await mod.ensureBuilt();
  return pathToFileURL(`${dist}/${file}`);
}

/**
 * 1. `explicit` (options.workerEntry); 2. from TypeScript source (vitest, tsx): the engine's dist/{file},
 * built on demand; 3. bundled (dist/aqa.mjs, dist/index.mjs, or another package's bundle that inlined
 * the engine): {file} next to the bundle, else the engine package's dist/{file}.
 */
export async function resolveWorkerFile(file: string, explicit: string | URL | undefined): Promise<URL> {
  if (explicit !== undefined) return explicit instanceof URL ? explicit : pathToFileURL(explicit);
  const here = import.meta.url;
  if (here.endsWith('.ts')) return builtWorker(new URL('../build.mjs', here), file);
  const sibling = new URL(`./${file}`, here);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  try {
    const pkg = createRequire(here).resolve('@aqa/engine/package.json');
    const buildScript = new URL('./build.mjs', pathToFileURL(pkg));
    if (existsSync(fileURLToPath(buildScript))) {
      try {
        return await builtWorker(buildScript, file);
      } catch {
        // no esbuild here: use what dist holds
      }
    }
    const dist = new URL(`./dist/${file}`, pathToFileURL(pkg));
    if (existsSync(fileURLToPath(dist))) return dist;
  } catch {
    // not resolvable from here
  }
  throw new Error(
    `@aqa/engine: ${file} not found next to ${fileURLToPath(here)}; ship packages/engine/dist/${file} beside the bundle or pass options.workerEntry`,
  );
}
