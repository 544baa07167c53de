import { describe, expect, it } from 'vitest';
import { eventsOf, type JudgedRun } from './run-events';

const load = (status: string, messageKind: string | null = status): JudgedRun => ({
  kind: 'load',
  status,
  summary: JSON.stringify({ total_requests: 10, error_rate: 0 }),
  messageKind,
});
const api = (status: string, failed: number, validationFailures = 0): JudgedRun => ({
  kind: 'api',
  status,
  summary: JSON.stringify({
    total_requests: 3,
    successful_requests: 3 - failed,
    failed_requests: failed,
    validation_failures: validationFailures,
  }),
  messageKind: status,
});

const none = () => Promise.resolve(undefined);
const before = (run: JudgedRun) => () => Promise.resolve(run);

describe('the events of an ended run (docs/adr/0032-notifications-out.md §2)', () => {
  it('a failed or interrupted run failed', async () => {
    expect(await eventsOf(load('failed'), none)).toEqual(['run_failed']);
    expect(await eventsOf(load('interrupted'), none)).toEqual(['run_failed']);
  });

  it('a load run that broke a threshold gives threshold_failed only', async () => {
    expect(await eventsOf(load('completed', 'threshold_failed'), none)).toEqual(['threshold_failed']);
  });

  it('a functional run with a failed call failed; with a failed validation, both', async () => {
    expect(await eventsOf(api('completed', 1), none)).toEqual(['run_failed']);
    expect(await eventsOf(api('failed', 1, 1), none)).toEqual(['run_failed', 'threshold_failed']);
  });

  it('a passing run recovered only when the run before it did not pass', async () => {
    expect(await eventsOf(api('completed', 0), before(api('failed', 2)))).toEqual(['recovered']);
    expect(await eventsOf(load('completed'), before(load('completed', 'threshold_failed')))).toEqual([
      'recovered',
    ]);
    expect(await eventsOf(api('completed', 0), before(api('completed', 0)))).toEqual([]);
    expect(await eventsOf(api('completed', 0), none)).toEqual([]);
  });

  it('a stopped run gives nothing and does not ask for the run before it', async () => {
    let asked = false;
    const events = await eventsOf(load('stopped'), () => {
      asked = true;
      return Promise.resolve(load('failed'));
    });
    expect(events).toEqual([]);
    expect(asked).toBe(false);
  });
});
