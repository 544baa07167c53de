// For bench scripts that import the TypeScript sources: when this process was not started with tsx's
// loader, the script runs again under it (worker threads it starts inherit the loader) and this process
// exits with its status. Call it before the first import of a TypeScript module.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `scriptUrl`: the calling script's `import.meta.url`. */
export function runUnderTsx(scriptUrl) {
  if (process.execArgv.includes('tsx')) return;
  const again = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(scriptUrl), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(again.status ?? 1);
}
