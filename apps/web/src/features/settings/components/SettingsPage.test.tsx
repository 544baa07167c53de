import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { createFetchMock, json, renderApp, signInAs, TEST_USER } from '@/test/render';

beforeEach(() => {
  vi.stubGlobal('fetch', createFetchMock({ 'GET /api/me': () => json({ user: TEST_USER }) }));
  signInAs();
});
afterEach(() => {
  setCurrentWorkspace(null);
  vi.unstubAllGlobals();
});

describe('settings', () => {
  it('applies and stores the theme at once', async () => {
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('says which workspace the user works in and as what, links to it, and shows the audit log to owners only', async () => {
    vi.stubGlobal(
      'fetch',
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/workspaces': () =>
          json({
            workspaces: [
              { id: 'u_ada', name: 'Ada', personal: true, role: 'owner', timezone: 'UTC', members: 1 },
              {
                id: 'ws_team',
                name: 'QA team',
                personal: false,
                role: 'viewer',
                timezone: 'UTC',
                members: 2,
              },
            ],
          }),
      }),
    );
    const first = renderApp('/settings');
    const card = await screen.findByTestId('settings-workspace');
    expect(card).toHaveTextContent('You are working in Personal as Owner');
    expect(within(card).getByTestId('settings-workspace-open')).toHaveAttribute('href', '/workspace');
    expect(screen.getByTestId('audit-log')).toBeInTheDocument();
    first.unmount();

    setCurrentWorkspace('ws_team');
    renderApp('/settings');
    await waitFor(() =>
      expect(screen.getByTestId('settings-workspace')).toHaveTextContent(
        'You are working in QA team as Viewer',
      ),
    );
    expect(screen.queryByTestId('audit-log')).toBeNull();
  });
});
