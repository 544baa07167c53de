import { describe, expect, it } from 'vitest';
import { functionalStatusAnswer } from './answers';
import type { AssistantData, FunctionalPlanView, FunctionalRunView } from './data';

/*
 * James on a functional run a server died during (docs/design.md §10, docs/adr/0016-crash-recovery.md):
 * it says the run was interrupted and what it had judged before, in the asker's language.
 */

const plan: FunctionalPlanView = {
  id: 'fp_1',
  name: 'Orders API',
  kind: 'api',
  plan: null,
};

function dataWith(run: FunctionalRunView): AssistantData {
  return {
    perfPlans: [],
    perfRuns: [],
    baselines: new Map(),
    functionalPlans: [plan],
    functionalRuns: [run],
  };
}

const interrupted: FunctionalRunView = {
  id: 'fc_1',
  planId: 'fp_1',
  name: 'Orders API',
  status: 'interrupted',
  startedAt: '2030-01-01T10:00:00.000Z',
  error: 'The server stopped during the run, so it did not finish',
  summary: { total_requests: 5, successful_requests: 3, failed_requests: 2, validation_failures: 2 },
  apis: [
    {
      name: 'Create order',
      status: 'failed',
      method: 'POST',
      url: 'http://127.0.0.1:9/orders',
      response_time: 12,
      status_code: 500,
      validation_results: [{ name: 'status_code', passed: false }],
    },
  ],
};

describe('James on the last functional run', () => {
  it('says an interrupted run was interrupted, and what it judged before, in English and Korean', () => {
    const en = functionalStatusAnswer(dataWith(interrupted), plan, 'en');
    expect(en.answer).toBe(
      'The last run of Orders API (2030-01-01 10:00:00 UTC) was interrupted: the server stopped during it. Before that it judged 5 calls: 2 failed, 2 validation failures. Failing: Create order.',
    );
    expect(en.links[0]).toEqual({ label: 'Last run', href: '/functional-test-result/fc_1' });
    const ko = functionalStatusAnswer(dataWith(interrupted), plan, 'ko');
    expect(ko.answer).toContain('실행 중 서버가 멈춰 중단되었습니다');
    expect(ko.answer).toContain('호출 5개를 판정했고 실패 2개');

    const completed = functionalStatusAnswer(dataWith({ ...interrupted, status: 'completed' }), plan, 'en');
    expect(completed.answer).toMatch(
      /^The last run of Orders API \(2030-01-01 10:00:00 UTC\) completed: 5 calls/,
    );
  });

  it('says "1 validation failure" and "1 call" in the singular, and the same in Korean (issue 24)', () => {
    const one = {
      ...interrupted,
      status: 'failed',
      summary: { total_requests: 1, successful_requests: 0, failed_requests: 1, validation_failures: 1 },
    };
    expect(functionalStatusAnswer(dataWith(one), plan, 'en').answer).toBe(
      'The last run of Orders API (2030-01-01 10:00:00 UTC) failed: 1 call, 1 failed, 1 validation failure. Failing: Create order.',
    );
    expect(functionalStatusAnswer(dataWith(one), plan, 'ko').answer).toContain(
      '호출 1개, 실패 1개, 검증 실패 1개',
    );
  });

  it('tells runs of the same minute apart: the time has its seconds (issue 24)', () => {
    const at = (startedAt: string) =>
      functionalStatusAnswer(dataWith({ ...interrupted, status: 'completed', startedAt }), plan, 'en').answer;
    expect(at('2030-01-01T10:00:05.000Z')).toContain('(2030-01-01 10:00:05 UTC)');
    expect(at('2030-01-01T10:00:41.000Z')).toContain('(2030-01-01 10:00:41 UTC)');
  });
});
