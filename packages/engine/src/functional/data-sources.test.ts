import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { DataFeed, parseCsv, scriptData } from './data-sources';

const script = (dataSource: string) => `
execution:
- scenario: s
scenarios:
  s:
    variables:
      token: none
    data-sources:
${dataSource}
    requests:
    - url: http://127.0.0.1:1/a?u=\${name}&t=\${token}
      extract-jsonpath:
        token: $.token
`;

function plan(text: string, files?: Record<string, string>) {
  return FunctionalPlanSchema.parse({
    test_name: 'data',
    source: 'script_input',
    script_content: text,
    ...(files === undefined ? {} : { data_files: files }),
  });
}

describe('CSV data sources', () => {
  it('reads quoted fields only when quoted, skips blank lines and reads CRLF', () => {
    expect(parseCsv('a,"b,c"\r\n\r\nd,e\n', ',', true)).toEqual([
      ['a', 'b,c'],
      ['d', 'e'],
    ]);
    expect(parseCsv('a,"b,c"\n', ',', false)).toEqual([['a', '"b', 'c"']]);
    expect(parseCsv('x;"say ""hi"""', ';', true)).toEqual([['x', 'say "hi"']]);
  });

  it('hands out rows in order, wrapping round when it loops and ending when it does not', () => {
    const rows = [['1'], ['2']];
    const looping = new DataFeed('f.csv', ['n'], rows, true);
    expect([1, 2, 3, 4, 5].map(() => looping.take()?.[0])).toEqual(['1', '2', '1', '2', '1']);
    const once = new DataFeed('f.csv', ['n'], rows, false);
    expect([1, 2, 3].map(() => once.take()?.[0] ?? null)).toEqual(['1', '2', null]);
    expect(once.taken).toBe(2);
  });

  it('takes the header row as the names, or the names the script gives, and guesses the delimiter', () => {
    const named = scriptData(
      plan(script('    - path: users.csv'), { 'users.csv': 'name;age\nann;1\nbob;2\n' }),
    );
    expect(named?.variables).toEqual({ token: 'none' });
    expect(named?.feeds[0]?.names).toEqual(['name', 'age']);
    expect(named?.feeds[0]?.rows).toEqual([
      ['ann', '1'],
      ['bob', '2'],
    ]);
    const given = scriptData(
      plan(
        script('    - path: users.csv\n      variable-names: name\n      delimiter: "|"\n      loop: false'),
        {
          'users.csv': 'ann|x\nbob|y',
        },
      ),
    );
    expect(given?.feeds[0]?.names).toEqual(['name']);
    expect(given?.feeds[0]?.rows).toEqual([
      ['ann', 'x'],
      ['bob', 'y'],
    ]);
    expect(given?.feeds[0]?.loop).toBe(false);
  });

  it('has nothing for a plan without a script', () => {
    expect(
      scriptData(FunctionalPlanSchema.parse({ test_name: 'x', apis: [{ name: 'a', url: 'http://h/' }] })),
    ).toBeNull();
  });
});
