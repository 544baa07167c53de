import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importedSpecifiers, importGraph } from './lib/import-graph';

// No module of ours takes part in an import circle, in any package or app (docs/style.md "Layout").
// The web router used to be in one with every screen (the registry the features import for screen paths
// also loaded their pages): screen ids and paths now live in apps/web/src/lib/screens.ts. The import
// model of the converters was in one with the OpenAPI response reader through a type.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the imports of every package and app', () => {
  it('form no cycle, type-only and lazy imports included', () => {
    const found = cycles(importGraph(ROOT)).map((component) =>
      component.map((file) => relative(ROOT, file)).sort(),
    );
    expect(found).toEqual([]);
  });

  it('the check finds a cycle, and reads lazy and type-only imports', () => {
    // The router's old shape: a registry imported by a page that the registry loads lazily.
    const graph = new Map([
      ['registry.ts', ['page.tsx']],
      ['page.tsx', ['registry.ts', 'button.tsx']],
      ['button.tsx', []],
    ]);
    expect(cycles(graph).map((component) => component.sort())).toEqual([['page.tsx', 'registry.ts']]);
    const loaders = importedSpecifiers(join(ROOT, 'apps/web/src/app/screen-loaders.ts'));
    expect(loaders).toContain('@/features/results/components/TestResultPage');
    const model = importedSpecifiers(join(ROOT, 'packages/converters/src/import/openapi-responses.ts'));
    expect(model).toContain('./openapi-refs'); // `import type { RefContext, … }`
  });

  it('checks every workspace, a package added later too, without a list to keep', () => {
    const checked = new Set(
      [...importGraph(ROOT).keys()].map((file) => relative(ROOT, file).split('/src/')[0]),
    );
    for (const workspace of ['apps/server', 'apps/web', 'packages/plan', 'packages/engine']) {
      expect(checked).toContain(workspace);
    }
    const repo = mkdtempSync(join(tmpdir(), 'aqa-import-graph-'));
    try {
      const src = join(repo, 'packages/added-later/src');
      mkdirSync(src, { recursive: true });
      writeFileSync(join(src, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      writeFileSync(
        join(src, 'b.ts'),
        "import type { a } from './a';\nexport const b: typeof a | null = null;\n",
      );
      const found = cycles(importGraph(repo)).map((component) =>
        component.map((file) => relative(repo, file)).sort(),
      );
      expect(found).toEqual([['packages/added-later/src/a.ts', 'packages/added-later/src/b.ts']]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('screen ids and paths come from a module that imports no feature', () => {
    const screens = importedSpecifiers(join(ROOT, 'apps/web/src/lib/screens.ts'));
    expect(
      screens.filter((specifier) => specifier.startsWith('@/features') || specifier.startsWith('@/app')),
    ).toEqual([]);
  });
});
