import { describe, expect, it } from 'vitest';
import { PerfPlanSchema, ScriptRequestSchema, type PerfPlanInput } from './perf-plan';
import { dataColumns, PERF_DATA_MAX_BYTES, readTestData } from './test-data';
import { DataFilesSchema } from './functional';

const base: PerfPlanInput = {
  name: 'Data plan',
  urls: [{ url: 'http://127.0.0.1:1/users/{{id}}', payload: '{"email":"{{email}}"}' }],
};

function problems(input: PerfPlanInput): { path: string; message: string }[] {
  const parsed = PerfPlanSchema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('performance plan test data', () => {
  it('a plan without data validates as before and carries no data fields', () => {
    const plan = PerfPlanSchema.parse(base);
    expect(plan.data_files).toBeUndefined();
    expect(plan.data_sources).toBeUndefined();
  });

  it('reads a source with its defaults, header columns and rows', () => {
    const plan = PerfPlanSchema.parse({
      ...base,
      data_files: { 'users.csv': '\uFEFFid,email\r\n1,a@x.test\r\n\r\n2,"b,c@x.test"\n' },
      data_sources: [{ path: 'users.csv' }],
    });
    expect(plan.data_sources).toEqual([{ path: 'users.csv', loop: true, random_order: false, share: 'all' }]);
    const [table] = readTestData(plan);
    expect(table!.names).toEqual(['id', 'email']);
    expect(table!.rows).toEqual([
      ['1', 'a@x.test'],
      ['2', 'b,c@x.test'],
    ]);
    expect(dataColumns(plan)).toEqual(['id', 'email']);
  });

  it('variable_names (a list or Taurus comma text) make the first line data; the delimiter is used as given', () => {
    const plan = PerfPlanSchema.parse({
      ...base,
      data_files: { 'u.csv': '1;a\n2;b\n' },
      data_sources: [
        { path: 'u.csv', delimiter: ';', variable_names: 'id, email', share: 'user', loop: false },
      ],
    });
    const [table] = readTestData(plan);
    expect(table).toMatchObject({
      names: ['id', 'email'],
      rows: [
        ['1', 'a'],
        ['2', 'b'],
      ],
      share: 'user',
      loop: false,
    });
  });

  it('refuses a row of another width with its file and line', () => {
    expect(
      problems({
        ...base,
        data_files: { 'users.csv': 'id,email\n1,a\n\n2,b,extra\n3,c\n' },
        data_sources: [{ path: 'users.csv' }],
      }),
    ).toEqual([
      {
        path: 'data_files.users.csv',
        message: 'Data file "users.csv" line 4: 3 fields where the header has 2',
      },
    ]);
  });

  it('refuses an unclosed quote with the line it opens on', () => {
    expect(
      problems({
        ...base,
        data_files: { 'u.csv': 'id,email\n1,a\n2,"b\n3,c\n' },
        data_sources: [{ path: 'u.csv' }],
      }).map((p) => p.message),
    ).toContain('Data file "u.csv" line 3: a quoted field is not closed');
  });

  it('refuses a source without its file, a bad column name, an empty file and a column of two sources', () => {
    expect(
      problems({
        ...base,
        data_files: {
          'a.csv': 'id,first name\n1,x\n',
          'b.csv': 'id\n',
          'c.csv': 'id\n7\n',
          'd.csv': 'x;id\n1;2\n',
        },
        data_sources: [
          { path: 'missing.csv' },
          { path: 'a.csv' },
          { path: 'b.csv' },
          { path: 'c.csv' },
          { path: 'd.csv' },
        ],
      }),
    ).toEqual([
      {
        path: 'data_sources.0.path',
        message: `Data source "missing.csv" names no file of the plan's data_files`,
      },
      {
        path: 'data_files.a.csv',
        message:
          'Data file "a.csv": column "first name" is not a variable name (a letter or _, then letters, digits, _ . -)',
      },
      { path: 'data_files.b.csv', message: 'Data file "b.csv" has no rows of data' },
      {
        path: 'data_sources.4.variable_names',
        message: 'Column "id" of "d.csv" is also a column of "c.csv": rename one in variable_names',
      },
    ]);
  });

  it('refuses an unknown share mode and a delimiter holding a quote', () => {
    expect(
      problems({
        ...base,
        data_files: { 'u.csv': 'id\n1\n' },
        data_sources: [{ path: 'u.csv', share: 'thread' as 'all', delimiter: '"' }],
      }).map((p) => p.message),
    ).toEqual(['A delimiter cannot hold a double quote or a line break', 'share must be one of all, user']);
  });

  it('takes up to 10 MB of data, while a functional plan keeps its 5 MB', () => {
    const header = 'id\n';
    const big = header + '1234567\n'.repeat(Math.floor((6 * 1024 * 1024) / 8));
    const plan = { ...base, data_files: { 'big.csv': big }, data_sources: [{ path: 'big.csv' }] };
    expect(problems(plan)).toEqual([]);
    expect(DataFilesSchema.safeParse({ 'big.csv': big }).success).toBe(false);
    const tooBig = header + 'x'.repeat(PERF_DATA_MAX_BYTES);
    expect(problems({ ...base, data_files: { 'big.csv': tooBig } }).map((p) => p.message)).toContain(
      'The data files together must be at most 10 MB',
    );
  });

  it('a script request carries the data too, checked alike', () => {
    const request = {
      urls: base.urls,
      data_files: { 'u.csv': 'id\n1\n' },
      data_sources: [{ path: 'u.csv' }],
    };
    expect(ScriptRequestSchema.parse(request).data_sources).toEqual([
      { path: 'u.csv', loop: true, random_order: false, share: 'all' },
    ]);
    const bad = ScriptRequestSchema.safeParse({ ...request, data_sources: [{ path: 'v.csv' }] });
    expect(bad.success).toBe(false);
  });
});
