import { PerfPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { TemplateScope } from '../call/template';
import { ShardData, prepareTestData, type DataReader } from './test-data';

/*
 * One machine's view of the test data (docs/adr/0027-load-profiles.md "Test data"), without workers: the
 * rows each take gives, several sources together, and the stride of a machine of several.
 */

const csv = (column: string, n: number): string =>
  [column, ...Array.from({ length: n }, (_, i) => `${column}${i}`)].join('\n');

function plan(sources: Record<string, unknown>[], files: Record<string, string>) {
  return PerfPlanSchema.parse({
    name: 'Data',
    tool: 'k6',
    concurrent_users: 2,
    duration: 1,
    urls: [{ url: 'http://127.0.0.1:9/{{id}}/{{code}}' }],
    data_files: files,
    data_sources: sources,
  });
}

function scope(): TemplateScope {
  const s = new TemplateScope();
  s.variableSlot('id');
  s.variableSlot('code');
  return s;
}

const user = (): DataReader => ({ vars: [], cursors: [0, 0] });

describe('ShardData', () => {
  it("reads a user's own source first: a user that ran out of its rows takes no shared row from the others", () => {
    const p = plan(
      [
        { path: 'ids.csv', share: 'all', loop: false },
        { path: 'codes.csv', share: 'user', loop: false },
      ],
      { 'ids.csv': csv('id', 10), 'codes.csv': csv('code', 1) },
    );
    const data = new ShardData(prepareTestData(p, 1)!, scope());
    const [a, b, c] = [user(), user(), user()];
    expect(data.take(a)).toBe(true);
    expect(a.vars).toEqual(['id0', 'code0']);
    // a and b have used their one code: they end without drawing an id.
    expect(data.take(a)).toBe(false);
    expect(data.take(b)).toBe(true);
    expect(data.take(b)).toBe(false);
    // c takes the next id after b's: none was lost to the users that ended.
    expect(data.take(c)).toBe(true);
    expect(c.vars[0]).toBe('id2');
    expect(data.drain()).toEqual([0, 2]);
  });

  it('gives the shared sources one row index a take, so one that runs out ends every later take too', () => {
    const p = plan(
      [
        { path: 'ids.csv', share: 'all', loop: true },
        { path: 'codes.csv', share: 'all', loop: false },
      ],
      { 'ids.csv': csv('id', 2), 'codes.csv': csv('code', 3) },
    );
    const data = new ShardData(prepareTestData(p, 1)!, scope());
    const u = user();
    const seen: string[] = [];
    while (data.take(u)) seen.push(`${u.vars[0]}/${u.vars[1]}`);
    expect(seen).toEqual(['id0/code0', 'id1/code1', 'id0/code2']);
    expect(data.take(user())).toBe(false);
    expect(data.drain()).toEqual([0, 2]);
  });

  it('machines of one run take their stride of the rows of the one permutation their common seed shuffles', () => {
    const p = plan([{ path: 'codes.csv', share: 'all', loop: false, random_order: true }], {
      'codes.csv': csv('code', 9),
    });
    const taken: string[] = [];
    for (const offset of [0, 1]) {
      const data = new ShardData(prepareTestData(p, 42, { offset, stride: 2 })!, scope());
      const u: DataReader = { vars: [], cursors: [0] };
      while (data.take(u)) taken.push(u.vars[1]!);
    }
    // The permutation, machine 0 its even places and machine 1 its odd ones: every row once.
    const order = prepareTestData(p, 42)!.sources[0]!.rows.map((row) => row[0]!);
    expect(order).not.toEqual(Array.from({ length: 9 }, (_, i) => `code${i}`));
    expect(taken).toEqual([...order.filter((_, i) => i % 2 === 0), ...order.filter((_, i) => i % 2 === 1)]);
  });
});
