import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The boundary rules of eslint.config.js — folders of the web app, and the server's layers
// (routes → services → repositories → db) — proven by linting small snippets as if they were files at the
// given paths (ESLint's Node API; only the import rules and the rule against queries outside the
// repositories run, without type information, to stay fast).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId.endsWith('no-restricted-imports') || ruleId === 'no-restricted-syntax',
});

/** The import-rule (and query-rule) messages for `code` placed at `file` (relative to the repository). */
async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).map((message) => message.message);
}

// Loading the config and the TypeScript parser takes a few seconds the first time.
beforeAll(() => importErrors('apps/web/src/lib/probe.ts', 'export {};\n'), 60_000);

const INTERNALS = "Another feature's internals";

describe('folder boundaries of the web app', () => {
  it("stops a feature importing another feature's internals", async () => {
    const errors = await importErrors(
      'apps/web/src/features/dashboard/components/Probe.tsx',
      "import { toolName } from '@/features/results/model/format';\nexport const name = toolName('k6');\n",
    );
    expect(errors).toEqual([expect.stringContaining(INTERNALS)]);
  });

  it("lets a feature use another feature's public surface, and its own files", async () => {
    const errors = await importErrors(
      'apps/web/src/features/history/components/compare/Probe.tsx',
      [
        "import { toolName } from '@/features/results';",
        "import { ResultCharts } from '@/features/results/charts';",
        "import { runTitle } from '@/features/history/model/run-format';",
        "import { fetchPastRuns } from '../../queries/history-api';",
        'export const all = [toolName, ResultCharts, runTitle, fetchPastRuns];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it("stops a relative import that climbs out of the feature's folder", async () => {
    const errors = await importErrors(
      'apps/web/src/features/history/components/compare/Probe.tsx',
      "import { toolName } from '../../../results/model/format';\nexport const name = toolName('k6');\n",
    );
    expect(errors).toEqual([expect.stringContaining("out of the feature's folder")]);
  });

  it('stops a feature importing its own index.ts, which would make a cycle', async () => {
    const errors = await importErrors(
      'apps/web/src/features/results/components/Probe.tsx',
      "import { toolName } from '@/features/results';\nexport const name = toolName('k6');\n",
    );
    expect(errors).toEqual([expect.stringContaining("feature's own index.ts")]);
  });

  it('stops a feature importing the app, except in its tests', async () => {
    const code =
      "import { SCREEN_LOADERS } from '@/app/screen-loaders';\nexport const loaders = SCREEN_LOADERS;\n";
    expect(await importErrors('apps/web/src/features/plans/hooks/Probe.ts', code)).toEqual([
      expect.stringContaining('Features do not import the app'),
    ]);
    expect(await importErrors('apps/web/src/features/plans/hooks/Probe.test.ts', code)).toEqual([]);
  });

  it("lets tests and a feature's test helpers share another feature's test helpers, and nothing else", async () => {
    const code =
      "import { wireResult } from '@/features/results/test/wire-builders';\nexport const result = wireResult;\n";
    expect(await importErrors('apps/web/src/features/history/test/fixtures.ts', code)).toEqual([]);
    expect(await importErrors('apps/web/src/features/history/model/Probe.test.ts', code)).toEqual([]);
    expect(await importErrors('apps/web/src/features/history/model/probe.ts', code)).toEqual([
      expect.stringContaining(INTERNALS),
    ]);
    const internals =
      "import { toolName } from '@/features/results/model/format';\nexport const name = toolName;\n";
    expect(await importErrors('apps/web/src/features/history/test/fixtures.ts', internals)).toEqual([
      expect.stringContaining(INTERNALS),
    ]);
  });

  it('keeps the two plan editors apart: they share the call editor, which uses no other feature', async () => {
    const apart = 'Features kept apart';
    expect(
      await importErrors(
        'apps/web/src/features/functional/editor/components/Probe.tsx',
        "import { SavedPlan } from '@/features/plans';\nexport type Plan = SavedPlan;\n",
      ),
    ).toEqual([expect.stringContaining(apart)]);
    expect(
      await importErrors(
        'apps/web/src/features/plans/hooks/Probe.test.ts',
        "import { fetchFunctionalResults } from '@/features/functional';\nexport const all = [fetchFunctionalResults];\n",
      ),
    ).toEqual([expect.stringContaining(apart)]);
    expect(
      await importErrors(
        'apps/web/src/features/call-editor/model/probe.ts',
        "import { toolName } from '@/features/results';\nexport const name = toolName;\n",
      ),
    ).toEqual([expect.stringContaining(apart)]);
    const shared = [
      "import { createEntry } from '@/features/call-editor';",
      "import { useNotice } from '@/components/notices';",
      'export const all = [createEntry, useNotice];',
    ].join('\n');
    expect(await importErrors('apps/web/src/features/plans/model/probe.ts', shared)).toEqual([]);
    expect(await importErrors('apps/web/src/features/functional/editor/model/probe.ts', shared)).toEqual([]);
  });

  it('stops shared components and lib importing a feature', async () => {
    const errors = await importErrors(
      'apps/web/src/components/probe.tsx',
      "import { formatDate } from '@/features/history';\nexport const date = formatDate;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Shared code')]);
  });

  it('keeps the package rules in force beside the folder rules', async () => {
    const errors = await importErrors(
      'apps/web/src/features/results/components/Probe.tsx',
      "import { readFileSync } from 'node:fs';\nimport { toolName } from '@/features/plans/model/plan-form';\nexport const all = [readFileSync, toolName];\n",
    );
    expect(errors).toEqual([expect.stringContaining('browser-safe'), expect.stringContaining(INTERNALS)]);
  });
});

describe('the lint config', () => {
  it('names only packages of this repository that exist', () => {
    const config = readFileSync(join(ROOT, 'eslint.config.js'), 'utf8');
    const named = new Set([...config.matchAll(/@aqa\/[a-z-]+/g)].map((match) => match[0]));
    const existing = new Set(
      ['packages', 'apps'].flatMap((group) =>
        readdirSync(join(ROOT, group), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map(
            (entry) =>
              (
                JSON.parse(readFileSync(join(ROOT, group, entry.name, 'package.json'), 'utf8')) as {
                  name: string;
                }
              ).name,
          ),
      ),
    );
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((name) => !existing.has(name))).toEqual([]);
  });
});

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

  it.each([
    ['apps/server/src/cluster/probe.ts', 'The replicas code does not import routes'],
    ['apps/server/src/auth/probe.ts', 'Authentication does not import routes'],
    ['apps/server/src/services/runs/probe.ts', 'Services do not import routes'],
  ])('%s may not import routes', async (file, message) => {
    const up = file.split('/').length - 4;
    const errors = await importErrors(
      file,
      `import { runRoutes } from '${'../'.repeat(up)}routes/run.routes';\nexport const all = [runRoutes];\n`,
    );
    expect(errors).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    'apps/server/src/cluster/probe.ts',
    'apps/server/src/auth/probe.ts',
    'apps/server/src/services/probe.service.ts',
    'apps/server/src/services/runs/probe.ts',
  ])('%s may not use Kysely or the database, only name their types', async (file) => {
    const up = '../'.repeat(file.split('/').length - 4);
    const errors = await importErrors(
      file,
      [
        "import { sql } from 'kysely';",
        `import { openDatabase } from '${up}db/database';`,
        "import type { Kysely } from 'kysely';",
        `import type { Db } from '${up}db/database';`,
        `import type { RunRow } from '${up}db/schema';`,
        `import { planSearchText } from '${up}db/search-text';`,
        `import { ServerInstanceRepository } from '${up}repositories/server-instance.repository';`,
        'export const all = [sql, openDatabase, planSearchText, ServerInstanceRepository];',
        'export type Types = [Kysely<unknown>, Db, RunRow];',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('Only repositories/ and db/ use Kysely'),
      expect.stringContaining('Only repositories/ and db/ use the database'),
    ]);
  });

  it('only repositories/ and db/ build queries', async () => {
    const query = [
      "import type { Db } from '../db/database';",
      "export const all = (db: Db) => db.selectFrom('runs').selectAll().execute();",
    ].join('\n');
    const inSub = query.replace("'../db/", "'../../db/");
    const outside = 'SQL queries live in apps/server/src/repositories';
    for (const [file, code] of [
      ['apps/server/src/cluster/probe.ts', query],
      ['apps/server/src/auth/probe.ts', query],
      ['apps/server/src/services/runs/probe.ts', inSub],
    ] as const) {
      expect(await importErrors(file, code)).toEqual([expect.stringContaining(outside)]);
    }
    expect(await importErrors('apps/server/src/repositories/probe.repository.ts', query)).toEqual([]);
  });
});
