import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/*
 * The graph of which source file imports which, across the repository's packages and apps, for the
 * import-cycle check (scripts/import-cycles.test.ts, docs/style.md "Layout"). Type-only imports count:
 * a model that imports a reader's type to describe itself is a circle the next change turns into a
 * run-time one. Lazy `import()` counts too.
 */

/** `@/` names the web app's src/. */
const WEB_SRC = 'apps/web/src';

/**
 * The source folders whose files form one graph: the src/ of every workspace (package.json "workspaces":
 * packages/* and apps/*, found as scripts/typecheck.mjs finds them), so a package added later is checked
 * without being listed here.
 */
export function sourceRoots(root: string): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .sort()
          .map((name) => join(group, name, 'src'))
          .filter((dir) => existsSync(join(root, dir)))
      : [],
  );
}

/** The .ts and .tsx files below `dir`, tests and declaration files left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers a file names: imports and re-exports (type-only ones too), and `import()`. */
export function importedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || (ts.isExportDeclaration(node) && node.moduleSpecifier)) {
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

/** The file a relative or `@/` specifier names, or null for a package, a stylesheet or an image. */
export function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(root, WEB_SRC, specifier.slice(2));
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
  if (existsSync(base) || /\.(m?js|json)$/.test(base)) return null;
  throw new Error(`${from} imports ${specifier}, which is not a file`);
}

/** file → the files of ours it imports, for every source file under sourceRoots. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of sourceRoots(root)) {
    for (const file of sourceFiles(join(root, dir))) {
      graph.set(
        file,
        importedSpecifiers(file).flatMap((specifier) => resolveSpecifier(root, file, specifier) ?? []),
      );
    }
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file that imports itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
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
