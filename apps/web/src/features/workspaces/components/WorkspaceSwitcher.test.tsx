import type { WorkspaceSummary } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentWorkspaceId, setCurrentWorkspace } from '@/lib/workspace-store';
import {
  createFetchMock,
  headersOf,
  json,
  renderApp,
  signInAs,
  TEST_USER,
  type FetchMock,
} from '@/test/render';

const PERSONAL: WorkspaceSummary = {
  id: 'u_ada',
  name: 'Ada Lovelace',
  personal: true,
  role: 'owner',
  timezone: 'UTC',
  members: 1,
};
const TEAM: WorkspaceSummary = {
  id: 'ws_team',
  name: 'Checkout team',
  personal: false,
  role: 'viewer',
  timezone: 'Asia/Seoul',
  members: 3,
};

describe('WorkspaceSwitcher', () => {
  let fetchMock: FetchMock;

  beforeEach(() => {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/workspaces': () => json({ workspaces: [PERSONAL, TEAM] }),
      'GET /api/get-test-plans': () => json([]),
    });
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    setCurrentWorkspace(null);
    vi.unstubAllGlobals();
  });

  it('names the personal workspace "Personal", lists each workspace with its role, and switches to one', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    const switcher = await screen.findByTestId('workspace-switcher');
    expect(within(switcher).getByTestId('workspace-current-name')).toHaveTextContent('Personal');
    await waitFor(() =>
      expect(within(switcher).getByTestId('workspace-current-role')).toHaveTextContent('Owner'),
    );

    await user.click(within(switcher).getByTestId('workspace-switcher-toggle'));
    const options = within(switcher).getAllByTestId('workspace-option');
    expect(options.map((option) => option.textContent)).toEqual(['PersonalOwner', 'Checkout teamViewer']);
    expect(options[0]).toHaveAttribute('aria-current', 'true');
    expect(within(switcher).getByTestId('workspace-new')).toHaveTextContent('New workspace…');
    expect(within(switcher).getByTestId('workspace-manage')).toHaveTextContent('Manage workspace');

    const callsBefore = fetchMock.mock.calls.length;
    await user.click(options[1]!);

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(currentWorkspaceId()).toBe('ws_team');
    expect(within(switcher).getByTestId('workspace-current-name')).toHaveTextContent('Checkout team');
    expect(within(switcher).getByTestId('workspace-current-role')).toHaveTextContent('Viewer');
    expect(await screen.findByText('Now working in Checkout team')).toBeInTheDocument();
    // What the dashboard asks for now is the team's.
    await waitFor(() => {
      const later = fetchMock.mock.calls.slice(callsBefore);
      expect(later.length).toBeGreaterThan(0);
      for (const [, init] of later) expect(headersOf(init)['x-workspace-id']).toBe('ws_team');
    });
    // A viewer is told why there is no Run or New plan, and the sidebar's new-plan entries say so too.
    expect(await screen.findByTestId('viewer-notice')).toHaveTextContent(
      'You are a viewer in "Checkout team"',
    );
    expect(screen.getByTestId('nav-performance-input-urls')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('nav-performance-input-urls')).toHaveAttribute(
      'title',
      'Viewers read results; ask an owner for the editor role',
    );
  });

  it('in Korean, names the personal workspace 개인', async () => {
    renderApp('/settings', { language: 'ko' });
    const name = await screen.findByTestId('workspace-current-name');
    expect(name).toHaveTextContent('개인');
  });

  it('falls back to the personal workspace when the stored one is no longer in the list', async () => {
    setCurrentWorkspace('ws_removed');
    renderApp('/settings');
    await waitFor(() => expect(currentWorkspaceId()).toBeNull());
    expect(screen.getByTestId('workspace-current-name')).toHaveTextContent('Personal');
    expect(
      await screen.findByText(
        'That workspace is no longer yours to open; you are back in your personal one.',
      ),
    ).toBeInTheDocument();
  });

  it('opens the Workspace screen from "Manage workspace"', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    await user.click(await screen.findByTestId('workspace-switcher-toggle'));
    await user.click(screen.getByTestId('workspace-manage'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspace'));
    expect(await screen.findByTestId('workspace-personal')).toHaveTextContent('yours alone');
  });

  it("opens the team workspace a link names (a notification's result link), and drops the parameter", async () => {
    const { router } = renderApp('/settings?workspace_id=ws_team');
    await waitFor(() => expect(currentWorkspaceId()).toBe('ws_team'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/settings');
    await waitFor(() =>
      expect(screen.getByTestId('workspace-current-name')).toHaveTextContent('Checkout team'),
    );
  });

  it("starts James's panel afresh in the workspace switched to: his conversation is the workspace's", async () => {
    const turn = (question: string) => ({
      id: question,
      question,
      answer: { answer: 'An answer.', figures: [], links: [], source: 'analyser', understood: true },
      asked_at: '2026-12-01T09:00:00.000Z',
    });
    const others = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) =>
      input === '/api/assistant/conversation'
        ? Promise.resolve(
            json({
              turns: [
                turn(
                  headersOf(init)['x-workspace-id'] === 'ws_team' ? 'Team question?' : 'Personal question?',
                ),
              ],
            }),
          )
        : others(input, init),
    );
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-ask'));
    expect(await screen.findByText('Personal question?')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByTestId('workspace-switcher-toggle'));
    await user.click(screen.getAllByTestId('workspace-option')[1]!);
    await waitFor(() => expect(currentWorkspaceId()).toBe('ws_team'));
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-ask'));
    expect(await screen.findByText('Team question?')).toBeInTheDocument();
    expect(screen.queryByText('Personal question?')).toBeNull();
  });
});
