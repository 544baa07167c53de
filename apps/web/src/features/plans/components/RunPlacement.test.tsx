import type { AgentInfo } from '@aqa/plan';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderWithRouter, signInAs } from '@/test/render';
import { runTestRequest } from '../queries/plans-api';
import { RunPlacement } from './RunPlacement';

const agent = (id: string, online: boolean, runId: string | null): AgentInfo => ({
  agent_id: id,
  name: `agent-${id}`,
  host: 'load-1',
  cores: 2,
  version: '0.1.0',
  online,
  run_id: runId,
  last_seen_at: '2030-01-01T00:00:00.000Z',
});

function Harness() {
  const [agents, setAgents] = useState(0);
  return (
    <>
      <RunPlacement value={agents} onChange={setAgents}>
        <button type="button">Run Script</button>
      </RunPlacement>
      <output data-testid="chosen">{agents}</output>
    </>
  );
}

describe('RunPlacement (docs/scale-out.md)', () => {
  beforeEach(() => signInAs());
  afterEach(() => vi.unstubAllGlobals());

  it('offers this server and up to as many agents as are online and idle', async () => {
    // One busy and one offline agent are not offered.
    const agents = [
      agent('a', true, null),
      agent('b', true, null),
      agent('c', true, 'run_x'),
      agent('d', false, null),
    ];
    vi.stubGlobal('fetch', createFetchMock({ 'GET /api/agents': () => json(agents) }));
    renderWithRouter(<Harness />);
    const select = await screen.findByTestId('run-placement');
    const options = [...select.querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toEqual(['This server', '1 agent', '2 agents']);
    await userEvent.selectOptions(select, '2');
    expect(screen.getByTestId('chosen')).toHaveTextContent('2');
  });

  it('shows nothing when the server has no Redis, and the run stays on this server', async () => {
    const fetchMock = createFetchMock({
      'GET /api/agents': () =>
        json(
          { code: 'AGENTS_UNAVAILABLE', detail: 'Load agents need Redis: set REDIS_URL on the server.' },
          503,
        ),
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithRouter(<Harness />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByTestId('run-placement')).toBeNull();
    expect(screen.getByTestId('chosen')).toHaveTextContent('0');
    // The Run button is there all the same.
    expect(screen.getByRole('button', { name: 'Run Script' })).toBeInTheDocument();
  });

  it('puts the agents in the run-test request only when the run goes to agents', () => {
    const plan = {
      name: 'Shop',
      tool: 'builtin',
      concurrent_users: 6,
      duration: 1,
      urls: [],
    } as unknown as Parameters<typeof runTestRequest>[0];
    expect(runTestRequest(plan, 'plan_1')).not.toHaveProperty('agents');
    expect(runTestRequest(plan, 'plan_1', 3)).toMatchObject({ plan_id: 'plan_1', agents: 3 });
  });
});
