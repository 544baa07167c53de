import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The web app's modules must form no import cycle. The router used to be in one with every screen: the
// registry that the features import for screen paths also imported their pages to load them (19 files).
// Screen ids and paths now live in src/lib/screens.ts, which imports no feature, and only the router loads
// pages. Runtime edges count here, lazy `import()` included; `import type` is erased and does not.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers a file loads at run time: static imports and re-exports, and `import()`. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The module an app-internal specifier names (`@/…` or relative), or null for a package or an asset. */
function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  // A stylesheet or an image: a leaf.
  if (existsSync(base)) return null;
  throw new Error(`${relative(SRC, from)} imports ${specifier}, which is not a file`);
}

/** Strongly connected components with more than one file, or a file that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component);
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = runtimeImports(file).flatMap((specifier) => resolveSpecifier(file, specifier) ?? []);
    graph.set(file, targets);
  }
  return graph;
}

describe('the web app imports', () => {
  it('form no cycle', () => {
    const found = cycles(importGraph()).map((component) =>
      component.map((file) => relative(SRC, file)).sort(),
    );
    expect(found).toEqual([]);
  });

  it('the check finds a cycle, lazy imports included', () => {
    // The old shape: a registry imported by a page that the registry loads lazily.
    const graph = new Map([
      ['registry.ts', ['page.tsx']],
      ['page.tsx', ['registry.ts', 'button.tsx']],
      ['button.tsx', []],
    ]);
    expect(cycles(graph).map((component) => component.sort())).toEqual([['page.tsx', 'registry.ts']]);
    const file = join(SRC, 'app', 'screen-loaders.ts');
    expect(runtimeImports(file)).toContain('@/features/results/components/TestResultPage');
  });

  it('screen ids and paths come from a module that imports no feature', () => {
    const screens = runtimeImports(join(SRC, 'lib', 'screens.ts'));
    expect(
      screens.filter((specifier) => specifier.startsWith('@/features') || specifier.startsWith('@/app')),
    ).toEqual([]);
  });
});
