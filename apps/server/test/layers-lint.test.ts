import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The server's layers (routes → services → repositories → db) as the lint rule of eslint.config.js checks
// them, proven by linting small snippets as if they were server files (ESLint's Node API; only the import
// rules run, without type information, to stay fast).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId.endsWith('no-restricted-imports'),
});

async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).map((message) => message.message);
}

// Loading the config and the TypeScript parser takes a few seconds the first time.
beforeAll(() => importErrors('apps/server/src/probe.ts', 'export {};\n'), 60_000);

describe('server layers', () => {
  it('routes may not import a repository or the database', async () => {
    const errors = await importErrors(
      'apps/server/src/routes/probe.routes.ts',
      [
        "import { PlanRepository } from '../repositories/plan.repository';",
        "import { pingDatabase } from '../db/database';",
        'export const all = [PlanRepository, pingDatabase];',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('Routes call services, never a repository or the database'),
      expect.stringContaining('Routes call services, never a repository or the database'),
    ]);
  });

  it('routes may import services, auth and errors', async () => {
    const errors = await importErrors(
      'apps/server/src/routes/probe.routes.ts',
      [
        "import { PlanService } from '../services/plan.service';",
        "import { requireAuth } from '../auth/authenticate';",
        "import { ValidationError } from '../errors';",
        'export const all = [PlanService, requireAuth, ValidationError];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('services may not import routes, but may use repositories', async () => {
    const errors = await importErrors(
      'apps/server/src/services/history/probe.service.ts',
      [
        "import { RUN_SCHEMAS } from '../../routes/run.schemas';",
        "import { RunRepository } from '../../repositories/run.repository';",
        'export const all = [RUN_SCHEMAS, RunRepository];',
      ].join('\n'),
    );
    expect(errors).toEqual([expect.stringContaining('Services do not import routes')]);
  });

  it('repositories import neither routes nor services, but use the database', async () => {
    const errors = await importErrors(
      'apps/server/src/repositories/probe.repository.ts',
      [
        "import { runRoutes } from '../routes/run.routes';",
        "import { RunService } from '../services/runs/run.service';",
        "import type { Db } from '../db/database';",
        'export const all: unknown[] = [runRoutes, RunService];',
        'export type Handle = Db;',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('Repositories import neither routes nor services'),
      expect.stringContaining('Repositories import neither routes nor services'),
    ]);
  });
});
