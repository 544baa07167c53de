import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ServiceUnavailableError } from '../errors';

/** The name the command line is served and saved under (GET /downloads/aqa.mjs). */
export const CLI_FILE_NAME = 'aqa.mjs';

export const CLI_DOWNLOAD_MESSAGES = {
  notBuilt:
    'The aqa command line is not built on this server: run npm run build (or npm start) in its folder, then try again',
} as const;

/** Where the engine's build writes the one-file command line (packages/engine/build.mjs). */
const ENGINE_STANDALONE = 'dist/aqa-standalone.mjs';

/**
 * Finds the single-file `aqa` command line the server hands out (docs/reference/02-running.md §7):
 * 1. aqa.mjs beside the server's own bundle (apps/server/dist/, written by apps/server/build.mjs);
 * 2. the engine package's dist/aqa-standalone.mjs, rebuilt first when its sources are newer and
 *    esbuild is installed (a server run from source: tests, `npm run dev`).
 * Answers null when neither is there.
 */
export async function locateCliFile(moduleUrl: string = import.meta.url): Promise<string | null> {
  const beside = join(dirname(fileURLToPath(moduleUrl)), CLI_FILE_NAME);
  if (!moduleUrl.endsWith('.ts') && existsSync(beside)) return beside;
  let engineDir: string;
  try {
    engineDir = dirname(createRequire(moduleUrl).resolve('@aqa/engine/package.json'));
  } catch {
    return null;
  }
  const buildScript = join(engineDir, 'build.mjs');
  if (existsSync(buildScript)) {
    try {
      const build = (await import(pathToFileURL(buildScript).href)) as { ensureBuilt: () => Promise<string> };
      await build.ensureBuilt();
    } catch {
      // esbuild is not installed here: serve what dist holds
    }
  }
  const built = join(engineDir, ENGINE_STANDALONE);
  return existsSync(built) ? built : null;
}

/** The command line's bytes, read afresh each time so a rebuild is served at once. */
export class CliDownloadService {
  constructor(private readonly locate: () => Promise<string | null> = () => locateCliFile()) {}

  async file(): Promise<Buffer> {
    const path = await this.locate();
    if (path === null) throw new ServiceUnavailableError('CLI_NOT_BUILT', CLI_DOWNLOAD_MESSAGES.notBuilt);
    return readFile(path);
  }
}
