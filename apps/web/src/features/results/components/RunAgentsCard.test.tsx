import type { RunAgent } from '@aqa/plan';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { RunAgentsCard } from './RunAgentsCard';

const agent = (over: Partial<RunAgent>): RunAgent => ({
  agent_id: 'a1',
  name: 'agent-1',
  host: 'load-1',
  users: 2,
  status: 'running',
  requests: 1200,
  requests_per_second: 401.5,
  error: null,
  ...over,
});

describe('RunAgentsCard (docs/scale-out.md)', () => {
  it("lists each agent's users, state, requests and own throughput while live", () => {
    renderWithRouter(
      <RunAgentsCard
        live
        agents={[agent({}), agent({ agent_id: 'a2', name: 'agent-2', host: 'load-2', requests: 1100 })]}
      />,
    );
    const rows = screen.getAllByTestId('run-agent');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('agent-1')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('1,200');
    expect(rows[0]).toHaveTextContent('402 req/s');
    expect(rows[1]).toHaveTextContent('load-2');
    expect(screen.queryByTestId('run-agents-partial')).toBeNull();
  });

  it('names a lost agent and why, and marks the result partial', () => {
    renderWithRouter(
      <RunAgentsCard
        live={false}
        agents={[
          agent({ status: 'done' }),
          agent({
            agent_id: 'a2',
            name: 'agent-2',
            status: 'lost',
            error: 'agent agent-2 stopped sending heartbeats at second 5',
          }),
        ]}
      />,
    );
    const partial = screen.getByTestId('run-agents-partial');
    expect(partial).toHaveTextContent('Partial result: agent-2 stopped before the end');
    expect(partial).toHaveTextContent('agent agent-2 stopped sending heartbeats at second 5');
    // Finished: no live throughput column.
    expect(screen.queryByText('Req/s')).toBeNull();
  });

  it('is absent for a run on this server', () => {
    const { container } = renderWithRouter(<RunAgentsCard live agents={[]} />);
    expect(container.querySelector('[data-testid="run-agents"]')).toBeNull();
  });
});
