import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR as FIXTURES } from '../../test/fixtures';
import { importFile } from './import-file';
import { ImportError, type ImportResult, isHttpMethod } from './import-model';
import type { ImportSource } from './read-document';

/**
 * Every file of test-fixtures/ against the facts its README row gives (counted independently of our
 * code): the importable formats must import with exactly those counts; every other file must be refused
 * with a message that names the file and says what it is. The rows are read from the README itself, so a
 * fixture added there is tested without touching this file.
 */

const README = join(FIXTURES, 'README.md');

interface Row {
  file: string;
  format: string;
  facts: string;
}

/**
 * The rows of the README's tables: `| file | …` rows are single files for the API importers; `| folder | …`
 * rows (the browser recordings and the pages they run against, kept with the UI runner) name a folder
 * (`static/`) or a glob (`sides/*.side`) relative to test-fixtures/ — those are the UI recorders'
 * fixtures, not API descriptions.
 */
function readTables(): { files: Row[]; folders: Row[] } {
  const files: Row[] = [];
  const folders: Row[] = [];
  let table: Row[] | null = null;
  for (const line of readFileSync(README, 'utf8').split('\n')) {
    if (line.startsWith('| file |')) table = files;
    else if (line.startsWith('| folder |')) table = folders;
    else if (!line.startsWith('|')) table = line.trim() === '' ? table : null;
    else if (table && !line.startsWith('|---')) {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
      table.push({ file: cells[0] ?? '', format: cells[2] ?? '', facts: cells.slice(3).join(' | ') });
    }
  }
  return { files, folders };
}

/** Whether a fixture path falls under a folder row: `dir/` (every file below) or `dir/*.ext`. */
function underFolderRow(path: string, folder: string): boolean {
  if (folder.endsWith('/')) return path.startsWith(folder);
  const star = folder.indexOf('*');
  if (star < 0) return path === folder;
  const dir = folder.slice(0, star);
  const suffix = folder.slice(star + 1);
  return path.startsWith(dir) && !path.slice(dir.length).includes('/') && path.endsWith(suffix);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** "[get:8, post:7]" → { GET: 8, POST: 7 }; "[none]" → {}. */
function methodCounts(list: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of list.split(',')) {
    const match = /^\s*([A-Za-z]+):(\d+)\s*$/.exec(part);
    if (match?.[1] && match[2]) counts[match[1].toUpperCase()] = Number(match[2]);
  }
  return counts;
}

function load(row: Row, withSiblings = false) {
  const path = join(FIXTURES, row.file);
  const input = { name: path.split('/').pop() ?? row.file, bytes: new Uint8Array(readFileSync(path)) };
  if (!withSiblings) return importFile(input);
  // A multi-file spec: the files around it (its folder's parent, where "../common/..." references lead).
  const root = dirname(dirname(path));
  const files: Record<string, ImportSource> = {};
  for (const other of walk(root)) {
    if (other !== path)
      files[relative(dirname(path), other)] = { bytes: new Uint8Array(readFileSync(other)) };
  }
  return importFile({ ...input, files });
}

function refusal(row: Row): ImportError {
  try {
    load(row);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error(`${row.file} was imported, but it should have been refused`);
}

/** Steps are the operations whose method the plan can send; the others are named in a warning. */
function expectStepsFor(result: ImportResult, methods: Record<string, number>): void {
  const supported = Object.entries(methods).filter(([m]) => isHttpMethod(m));
  // A binary body read as text holds NUL, which the plan refuses (docs/design.md §11): left out, said so.
  const leftOut = result.warnings.filter((w) => w.message.includes('cannot contain a NUL character')).length;
  expect(result.steps.length + leftOut).toBe(supported.reduce((n, [, c]) => n + c, 0));
  for (const method of Object.keys(methods).filter((m) => !isHttpMethod(m))) {
    expect(
      result.warnings.some((w) => w.message.startsWith(`${method} is not a method the plan can send`)),
    ).toBe(true);
  }
  for (const step of result.steps) expect(step.name?.length).toBeGreaterThan(0);
}

describe('test fixtures (test-fixtures/README.md)', () => {
  const { files: rows, folders } = readTables();
  // The README and the licence texts are about the fixtures, not fixtures themselves.
  const fixtureFiles = walk(FIXTURES)
    .map((p) => relative(FIXTURES, p))
    .filter((p) => p !== 'README.md' && !p.startsWith('LICENSES/'))
    .sort();
  /** The files a folder row names, as paths relative to test-fixtures/ like the row itself. */
  const recordings = (folder: Row): string[] => {
    const dir = folder.file.slice(0, folder.file.lastIndexOf('/') + 1);
    return walk(resolve(FIXTURES, dir))
      .map((p) => relative(FIXTURES, p))
      .filter((f) => underFolderRow(f, folder.file));
  };

  it('has a README row for every fixture file, so none goes untested', () => {
    expect(rows.map((r) => r.file).sort()).toEqual(fixtureFiles);
    // Every folder row names files that are there.
    for (const folder of folders) expect(recordings(folder).length, folder.file).toBeGreaterThan(0);
  });

  // Browser recordings are UI tests, not API descriptions: the API import refuses each in words, never
  // crashes (the pages they run against are the UI runner's, and are not offered to the importer).
  for (const folder of folders.filter((f) => f.format !== 'HTML')) {
    it(`refuses each of ${folder.file} (${folder.format}) as an API import, in words`, () => {
      for (const file of recordings(folder)) {
        const message = refusal({ ...folder, file }).message;
        expect(message.startsWith(`${file.split('/').pop() ?? file}: `), message).toBe(true);
      }
    });
  }

  for (const row of rows) {
    const { file, format, facts } = row;
    const name = file.split('/').pop() ?? file;

    if (facts.includes('NEGATIVE')) {
      it(`refuses ${file} (negative case) with a message naming the file and the problem`, () => {
        const error = refusal(row);
        expect(error.message.startsWith(`${name}: `)).toBe(true);
        if (facts.includes('empty file')) expect(error.message).toBe(`${name}: the file is empty`);
        const yaml = /YAML parse error: (.+) at line (\d+), column (\d+)/.exec(facts);
        if (yaml) {
          expect(error.message).toBe(
            `${name}: YAML syntax error at line ${yaml[2]}, column ${yaml[3]}: ${yaml[1]}`,
          );
          expect(error.line).toBe(Number(yaml[2]));
        }
      });
      continue;
    }

    if (/fragment of a multi-file spec/.test(format)) {
      it(`refuses ${file}: a fragment of a multi-file spec, not a document`, () => {
        expect(refusal(row).message).toMatch(
          new RegExp(
            `^${name.replace('.', '\\.')}: this is part of a multi-file spec .*upload the root file`,
          ),
        );
      });
      continue;
    }

    if (/^(OpenAPI|Swagger)/.test(format)) {
      const ops = /ops (\d+) \[([^\]]*)\]/.exec(facts);
      if (facts.includes('NOTE: no paths object')) {
        it(`refuses ${file}: ${format} without a paths object`, () => {
          expect(refusal(row).message).toBe(
            `${name}: the document has no paths object, so it describes no operations to import`,
          );
        });
        continue;
      }
      const external = Number(/\$ref \d+ \(external (\d+)\)/.exec(facts)?.[1] ?? 0);
      const pathsAreRef = facts.includes('paths object is itself a $ref');
      it(`imports ${file}: ${ops?.[1]} operations ${ops?.[2]}${external > 0 ? ' (with the files it refers to)' : ''}`, () => {
        const result = load(row, external > 0);
        const methods = methodCounts(ops?.[2] ?? '');
        expect(result.info.format).toBe('swagger');
        expect(result.info.requests).toBe(Number(ops?.[1]));
        expect(result.info.methods).toEqual(methods);
        expect(result.info.paths).toBe(Number(/paths (\d+)/.exec(facts)?.[1]));
        expect(result.info.kind).toBe(
          format.startsWith('Swagger') ? 'Swagger 2.0' : `OpenAPI ${/openapi ([\d.]+)/.exec(facts)?.[1]}`,
        );
        expectStepsFor(result, methods);

        const server = /servers \d+ \((https?:\/\/[^ )]+)/.exec(facts)?.[1];
        if (server && !server.includes('{')) expect(result.info.servers).toContain(server.replace(/\/$/, ''));
        const swagger = /host (\S+) basePath (\S+) schemes (\w+)/.exec(facts);
        if (swagger && swagger[1] !== '—') {
          expect(result.info.servers).toEqual([
            `${swagger[3]}://${swagger[1]}${swagger[2] === '/' ? '' : swagger[2]}`,
          ]);
        }
        const webhooks = /webhooks (\d+)/.exec(facts);
        if (webhooks) expect(result.warnings.some((w) => w.location === 'webhooks')).toBe(true);
      });
      if (pathsAreRef) {
        it(`refuses ${file} alone: its paths are in files that were not uploaded, and says which`, () => {
          expect(refusal(row).message).toMatch(
            /the paths object cannot be read.*\.\/paths\/index\.yaml, which was not uploaded/,
          );
        });
      } else if (external > 0) {
        it(`imports ${file} alone too, with the same operations`, () => {
          expect(load(row).info.requests).toBe(Number(ops?.[1]));
        });
      }
      continue;
    }

    if (/^Postman (collection|v1 collection)/.test(format)) {
      const requests = /requests (\d+) \[([^\]]*)\]/.exec(facts);
      const folders = /folders (\d+)/.exec(facts);
      it(`imports ${file}: ${requests?.[1]} requests ${requests?.[2]} in ${folders?.[1] ?? 0} folders`, () => {
        const result = load(row);
        const methods = methodCounts(requests?.[2] ?? '');
        expect(result.info.format).toBe('postman');
        expect(result.info.requests).toBe(Number(requests?.[1]));
        expect(result.info.methods).toEqual(methods);
        expect(result.info.folders).toBe(Number(folders?.[1] ?? 0));
        expectStepsFor(result, methods);
      });
      continue;
    }

    if (/^Postman (environment|globals)|^JSON array \(data file\)/.test(format)) {
      it(`refuses ${file}: ${format.replace(/ JSON.*/, '')}, not a collection`, () => {
        expect(refusal(row).message).toMatch(
          new RegExp(
            `^${name.replace(/\./g, '\\.')}: this is a (Postman environment|Postman globals file|JSON array).*not a collection`,
          ),
        );
      });
      continue;
    }

    if (format === 'HAR JSON') {
      const entries = /entries (\d+) \[([^\]]*)\]/.exec(facts);
      const pages = /pages (\d+)/.exec(facts);
      it(`imports ${file}: ${entries?.[1]} entries ${entries?.[2]}`, () => {
        const result = load(row);
        const methods = methodCounts(entries?.[2] ?? '');
        expect(result.info.format).toBe('har');
        expect(result.info.requests).toBe(Number(entries?.[1]));
        expect(result.info.methods).toEqual(methods);
        expect(result.info.pages).toBe(Number(pages?.[1] ?? 0));
        expectStepsFor(result, methods);
        const hosts = /hosts ([^;]+)/.exec(facts)?.[1]?.trim().split(/\s+/) ?? [];
        for (const host of hosts) expect(result.info.servers.some((s) => s.includes(`//${host}`))).toBe(true);
        for (const step of result.steps) {
          expect(step.headers.some((h) => h.name.startsWith(':') || h.name.toLowerCase() === 'cookie')).toBe(
            false,
          );
        }
      });
      continue;
    }

    if (format === 'HAR request object JSON') {
      const request = /HAR request object: (\w+) (\S+);/.exec(facts);
      it(`imports ${file}: one HAR request, ${request?.[1]} ${request?.[2]}`, () => {
        const result = load(row);
        expect(result.steps).toHaveLength(1);
        expect(result.steps[0]?.method).toBe(request?.[1]);
        expect(result.steps[0]?.url).toBe(request?.[2]);
      });
      continue;
    }

    if (format.startsWith('Taurus')) {
      // docs/adr/0027-load-profiles.md "Importers"; taurus-to-plan.test.ts checks the loads read.
      it(`reads ${file} as a Taurus configuration: a performance plan, or refused in words`, () => {
        let result: ImportResult;
        try {
          result = load(row);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
          expect((error as ImportError).message).toContain(`${name}: this is a Taurus configuration`);
          return;
        }
        expect(result.info.format).toBe('taurus');
        expect(result.steps.length).toBeGreaterThan(0);
        expect(result.settings?.concurrent_users).toBeGreaterThanOrEqual(1);
      });
      continue;
    }

    it(`refuses ${file} (${format}): not an import format, said in words`, () => {
      const message = refusal(row).message;
      expect(message.startsWith(`${name}: `)).toBe(true);
      if (format.startsWith('JMeter')) expect(message).toContain('a JMeter test plan');
      else if (format === 'CSV data')
        expect(message).toMatch(/at least a "url" column; this file's columns are/);
      else expect(message).toMatch(/not an API description/);
    });
  }
});
