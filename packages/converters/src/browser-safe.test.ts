import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

describe('@aqa/converters', () => {
  it('type-checks without Node types, so the browser can run the generators', () => {
    const configPath = fileURLToPath(new URL('../tsconfig.browser.json', import.meta.url));
    const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
    const parsed = ts.parseJsonConfigFileContent(
      read.config,
      ts.sys,
      fileURLToPath(new URL('..', import.meta.url)),
    );
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(parsed.fileNames.some((f) => f.endsWith('.test.ts'))).toBe(false);
    expect(problems).toEqual([]);
  });
});
