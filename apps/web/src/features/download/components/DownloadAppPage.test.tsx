import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, signInAs, TEST_USER } from '@/test/render';

/** The server as far as the shell and the Download App screen read it. */
function server(
  plans: { performance: object[]; functional: object[] },
  agents: () => Response = () => json([]),
) {
  return createFetchMock({
    'GET /api/agents': agents,
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/messages': () => json({ messages: [], unread: 0 }),
    'GET /api/tokens': () => json({ tokens: [] }),
    'GET /api/get-test-plans': () => json(plans.performance),
    'GET /api/functional/get-test-configs': () => json(plans.functional),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('Download App', () => {
  it('opens from the sidebar, links the CLI file and fills every command with this server and the chosen plan', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      server({
        performance: [{ id: 'perf_1', name: 'Checkout load' }],
        functional: [{ id: 'fn_7', test_name: 'Login smoke' }],
      }),
    );
    signInAs();
    renderApp('/settings');
    await user.click(await screen.findByTestId('nav-download-app'));
    const origin = window.location.origin;

    expect(await screen.findByTestId('download-cli')).toHaveAttribute('href', '/downloads/aqa.mjs');
    const help = screen.getByText('node aqa.mjs --help');
    expect(help.tagName).toBe('CODE');
    expect(help.parentElement).toHaveTextContent('Then node aqa.mjs --help lists every option.');
    const picker = await screen.findByTestId('download-plan');
    expect(within(picker).getByRole('group', { name: 'Performance plans' })).toHaveTextContent(
      'Checkout load',
    );
    expect(within(picker).getByRole('group', { name: 'Functional plans' })).toHaveTextContent('Login smoke');
    const terminal = screen.getByTestId('download-terminal-code');
    expect(terminal).toHaveTextContent(`export AQA_SERVER=${origin}`);
    expect(terminal).toHaveTextContent(`curl -fsSL ${origin}/downloads/aqa.mjs -o aqa.mjs`);
    expect(terminal).toHaveTextContent('node aqa.mjs run --plan perf_1 --junit aqa-junit.xml');
    expect(screen.getByTestId('download-github-code')).toHaveTextContent(
      'AQA_TOKEN: ${{ secrets.AQA_TOKEN }}',
    );

    await user.selectOptions(picker, 'Login smoke');
    for (const block of ['terminal', 'github', 'gitlab']) {
      expect(screen.getByTestId(`download-${block}-code`)).toHaveTextContent(
        'node aqa.mjs test --plan fn_7 --junit aqa-junit.xml',
      );
    }

    // Copy hands over the block exactly as shown.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy the GitLab CI commands' }));
    expect(writeText).toHaveBeenCalledWith(screen.getByTestId('download-gitlab-code').textContent);
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    expect(screen.getByTestId('download-token-link')).toHaveAttribute('href', '/settings');
  });

  it('says PLAN_ID in the commands while the user has no saved plan, in Korean too', async () => {
    vi.stubGlobal('fetch', server({ performance: [], functional: [] }));
    signInAs();
    renderApp('/download-app', { language: 'ko' });
    expect(await screen.findByTestId('download-no-plans')).toHaveTextContent('저장된 플랜이 아직 없습니다');
    expect(screen.getByTestId('download-terminal-code')).toHaveTextContent(
      'node aqa.mjs run --plan PLAN_ID --junit aqa-junit.xml',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('앱 다운로드');
  });

  it("lists the user's agents with their state and gives the command that starts one", async () => {
    const agent = { host: 'load-1', cores: 4, version: '0.1.0', last_seen_at: '2030-01-01T00:00:00.000Z' };
    vi.stubGlobal(
      'fetch',
      server({ performance: [], functional: [] }, () =>
        json([
          { ...agent, agent_id: 'a1', name: 'east-1', online: true, run_id: null },
          { ...agent, agent_id: 'a2', name: 'east-2', online: true, run_id: 'run_1' },
          { ...agent, agent_id: 'a3', name: 'west-1', online: false, run_id: null, last_seen_at: null },
        ]),
      ),
    );
    signInAs();
    renderApp('/download-app');
    const list = await screen.findByTestId('agents-list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('east-1load-14 coresOnline · Idle'),
      expect.stringContaining('east-2load-14 coresOnline · Running a shard'),
      'west-1load-14 coresOffline',
    ]);
    expect(screen.getByTestId('download-agent-code')).toHaveTextContent(
      `node aqa.mjs agent --server ${window.location.origin} --name "$(hostname)"`,
    );
    // Which token: one of the scope Load agent (docs/adr/0023-agents-over-http.md), made in Settings.
    expect(screen.getByTestId('download-agent-code')).toHaveTextContent(
      "read -rsp 'Agent token (scope Load agent): ' AQA_TOKEN",
    );
    expect(screen.getByTestId('download-agents')).toHaveTextContent(
      'with an API token of the scope "Load agent"',
    );
    expect(screen.getByTestId('agents-token-link')).toHaveAttribute('href', '/settings');
  });

  it('says why there are no agents on a server without Redis', async () => {
    vi.stubGlobal(
      'fetch',
      server({ performance: [], functional: [] }, () =>
        json(
          { code: 'AGENTS_UNAVAILABLE', detail: 'Load agents need Redis: set REDIS_URL on the server.' },
          503,
        ),
      ),
    );
    signInAs();
    renderApp('/download-app');
    expect(await screen.findByTestId('agents-unavailable')).toHaveTextContent(
      'This server runs without Redis (REDIS_URL), so it cannot use load agents.',
    );
  });
});
