import { parseCsv } from '../csv-to-plan';
import type { TaurusDataSource } from './taurus-model';
import type { Warn } from './taurus-execution';
import { pathKey, scalarText, taurusFlag } from './taurus-text';
import { type LineTable, type PlainMap, isPlainMap, lineOf } from './yaml-tree';

/*
 * A Taurus scenario's data-sources (docs/reference/02-running.md §3 "Taurus scripts"): the CSV files
 * the functional test reads rows from, and the column names they set while it runs.
 */

export interface DataSourceContext {
  /** The files supplied with the script, by name. */
  files: Readonly<Record<string, string>>;
  lines: LineTable;
  warn: Warn;
  /** The script's data sources so far. */
  sources: TaurusDataSource[];
}

/**
 * A scenario's data-sources (CSV files whose rows set variables): each file once into `ctx.sources`, with
 * a warning for a file that is not supplied with the script and for each setting a functional test
 * cannot use.
 */
export function readDataSources(scenario: PlainMap, path: string, ctx: DataSourceContext): void {
  const raw = scenario['data-sources'];
  if (raw === undefined || raw === null) return;
  const list = Array.isArray(raw) ? raw : [raw];
  list.forEach((item, i) => {
    const at = Array.isArray(raw) ? `${path}.data-sources[${i}]` : `${path}.data-sources`;
    const container: object = Array.isArray(raw) ? raw : scenario;
    const key = Array.isArray(raw) ? i : 'data-sources';
    const spec = isPlainMap(item) ? item : { path: item };
    const file = scalarText(spec.path)?.trim();
    if (file === undefined || file === '') {
      ctx.warn(at, container, key, 'This data source names no file; it is skipped');
      return;
    }
    if (file.includes('${')) {
      ctx.warn(
        at,
        container,
        key,
        `The data source ${file} is named by a JMeter expression, which cannot be read before the run; it is skipped`,
      );
      return;
    }
    const names = scalarText(spec['variable-names']);
    const delimiter = scalarText(spec.delimiter);
    const supplied = Object.hasOwn(ctx.files, file);
    const source: TaurusDataSource = {
      path: file,
      delimiter: delimiter === undefined || delimiter === '' ? null : delimiter === 'tab' ? '\t' : delimiter,
      loop: taurusFlag(spec.loop, true),
      quoted: taurusFlag(spec.quoted),
      variable_names:
        names === undefined || names.trim() === ''
          ? null
          : names.split(delimiter || ',').map((n) => n.trim()),
      supplied,
      source: { path: at, ...lineOf(ctx.lines, container, key) },
    };
    if (!ctx.sources.some((d) => d.path === source.path)) ctx.sources.push(source);
    if (!supplied) {
      ctx.warn(
        at,
        container,
        key,
        `This script reads rows from ${file}; supply that file with the script, or the variables it sets stay unset`,
      );
    }
    for (const extra of Object.keys(spec)) {
      if (!['path', 'delimiter', 'loop', 'quoted', 'variable-names', 'encoding'].includes(extra)) {
        ctx.warn(
          `${at}${pathKey(extra)}`,
          spec,
          extra,
          `${extra} is not a data-source setting a functional test can use; it is skipped`,
        );
      }
    }
  });
}

/** Column names a scenario's data sources set: variable-names, or a supplied file's first row. */
export function sourceColumns(scenario: PlainMap, files: Readonly<Record<string, string>>): string[] {
  const raw = scenario['data-sources'];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const names: string[] = [];
  for (const item of list) {
    const spec = isPlainMap(item) ? item : { path: item };
    const given = scalarText(spec['variable-names']);
    const delimiter = scalarText(spec.delimiter) || ',';
    if (given !== undefined && given.trim() !== '')
      names.push(...given.split(delimiter).map((n) => n.trim()));
    else {
      const file = scalarText(spec.path);
      const content = file === undefined ? undefined : files[file];
      if (content !== undefined)
        names.push(...(parseCsv(content.split(/\r?\n/, 1)[0] ?? '')[0] ?? []).map((n) => n.trim()));
    }
  }
  return names;
}
