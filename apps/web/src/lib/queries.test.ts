import { contract } from '@aqa/contract';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { onFetchedAnswers, routeKey } from './queries';

describe('onFetchedAnswers', () => {
  const key = routeKey(contract.runs.result, { params: { id: 't1' }, query: {} });

  it('calls back on each fetched answer and failed fetch of its entry, not on what setQueryData wrote', async () => {
    const client = createQueryClient();
    const answer = vi.fn();
    const failure = vi.fn();
    const stop = onFetchedAnswers<{ status: string }>(client, key, { answer, failure });

    client.setQueryData(key, { status: 'running' });
    await client.fetchQuery({ queryKey: key, queryFn: () => ({ status: 'running' }), staleTime: 0 });
    // Two equal answers are two answers.
    await client.fetchQuery({ queryKey: key, queryFn: () => ({ status: 'running' }), staleTime: 0 });
    const problem = new Error('Service unavailable');
    await expect(
      client.fetchQuery({ queryKey: key, queryFn: () => Promise.reject(problem), staleTime: 0 }),
    ).rejects.toBe(problem);
    // Another entry is not this one.
    const other = routeKey(contract.runs.result, { params: { id: 't2' }, query: {} });
    await client.fetchQuery({ queryKey: other, queryFn: () => ({ status: 'completed' }) });

    expect(answer.mock.calls).toEqual([[{ status: 'running' }], [{ status: 'running' }]]);
    expect(failure.mock.calls).toEqual([[problem]]);

    stop();
    await client.fetchQuery({ queryKey: key, queryFn: () => ({ status: 'completed' }), staleTime: 0 });
    expect(answer).toHaveBeenCalledTimes(2);
  });
});
