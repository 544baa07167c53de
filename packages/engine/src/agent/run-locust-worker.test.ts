import { describe, expect, it } from 'vitest';
import { parseLocustWorkers } from '../adapters/locust-distributed';
import type { LocustWorkerJob } from './protocol';
import { locustWorkerJobProblem } from './run-locust-worker';

/* A Locust worker job comes from the server over the network (docs/adr/0021-load-agents.md "Locust master/worker"): the agent reads it before it writes a file. */

const job: LocustWorkerJob = {
  run_id: 'run_1',
  agent_index: 0,
  agent_count: 2,
  files: [
    { name: 'testplan_locust_x.py', content: '# plan' },
    { name: 'aqa_locustfile.py', content: '# wrapper' },
  ],
  locustfile: 'aqa_locustfile.py',
  master_host: '127.0.0.1',
  master_port: 6650,
  users: 2,
  origins: ['http://127.0.0.1:8080'],
  guard: null,
  ends_at_epoch_ms: Date.now() + 60_000,
};

describe('locustWorkerJobProblem', () => {
  it('accepts a whole job', () => {
    expect(locustWorkerJobProblem(job)).toBeNull();
  });

  it('names what is wrong', () => {
    expect(locustWorkerJobProblem(null)).toBe('the job has no data');
    expect(locustWorkerJobProblem({ ...job, run_id: '' })).toBe('run_id is missing');
    expect(locustWorkerJobProblem({ ...job, master_port: '6650' })).toBe('master_port is not a number');
    expect(locustWorkerJobProblem({ ...job, master_host: '' })).toBe('master_host is missing');
    expect(locustWorkerJobProblem({ ...job, origins: [1] })).toBe('origins is not a list of strings');
    expect(locustWorkerJobProblem({ ...job, locustfile: 'other.py' })).toBe('locustfile is not one of files');
  });

  it('refuses a file name that would be written outside the worker folder', () => {
    for (const name of ['../evil.py', '/etc/cron.d/evil', 'sub/dir.py', '..', ''])
      expect(locustWorkerJobProblem({ ...job, files: [...job.files, { name, content: '' }] })).toBe(
        'files is not a list of { name, content } with plain file names',
      );
  });
});

describe('parseLocustWorkers', () => {
  it("reads the master's per-agent figures, and nothing of a half-written file", () => {
    const text = JSON.stringify({
      time: 1,
      workers: {
        '0': { users: 2, peak_users: 2, requests: 120, final: false, reports: 3 },
        '1': { users: 0, peak_users: 3, requests: 97, final: true, reports: 4 },
      },
    });
    expect([...parseLocustWorkers(text)!]).toEqual([
      [0, { users: 2, peak_users: 2, requests: 120, final: false, reports: 3 }],
      [1, { users: 0, peak_users: 3, requests: 97, final: true, reports: 4 }],
    ]);
    expect(parseLocustWorkers(text.slice(0, 30))).toBeNull();
    expect(parseLocustWorkers('{"time": 1}')).toBeNull();
  });
});
