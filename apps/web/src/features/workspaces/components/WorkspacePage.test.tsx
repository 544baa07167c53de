import type { WorkspaceMember, WorkspaceSummary } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentWorkspaceId, setCurrentWorkspace } from '@/lib/workspace-store';
import { answerConfirm } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const PERSONAL: WorkspaceSummary = {
  id: 'u_ada',
  name: 'Ada Lovelace',
  personal: true,
  role: 'owner',
  timezone: 'UTC',
  members: 1,
};
const team = (role: WorkspaceSummary['role']): WorkspaceSummary => ({
  id: 'ws_team',
  name: 'Checkout team',
  personal: false,
  role,
  timezone: 'Asia/Seoul',
  members: 2,
});
const ADA: WorkspaceMember = {
  user_id: 'u_ada',
  email: TEST_USER.email,
  name: 'Ada Lovelace',
  role: 'owner',
  added_at: '2026-12-01T09:00:00.000Z',
};
const BOB: WorkspaceMember = {
  user_id: 'u_bob',
  email: 'bob@example.com',
  name: 'Bob Byte',
  role: 'editor',
  added_at: '2026-12-02T09:00:00.000Z',
};

describe('WorkspacePage', () => {
  let fetchMock: FetchMock;
  let members: WorkspaceMember[];
  let made: WorkspaceSummary[];

  function serve(role: WorkspaceSummary['role']) {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/workspaces': () => json({ workspaces: [PERSONAL, team(role), ...made] }),
      'GET /api/workspaces/ws_team/members': () => json({ members }),
      'GET /api/workspaces/ws_team/invites': () => json({ invites: [] }),
      'POST /api/workspaces/ws_team/members': (init) => {
        const body = bodyOf(init) as { email: string; role: WorkspaceMember['role'] };
        if (body.email === 'nobody@example.com') {
          return json(
            {
              detail: 'No account has this email address: ask them to register first',
              code: 'NO_SUCH_ACCOUNT',
            },
            400,
          );
        }
        members = [...members, { ...BOB, user_id: 'u_cy', email: body.email, name: 'Cy', role: body.role }];
        return json({ members }, 201);
      },
      'PUT /api/workspaces/ws_team/members/u_bob': (init) => {
        members = members.map((m) =>
          m.user_id === 'u_bob'
            ? { ...m, role: (bodyOf(init) as { role: WorkspaceMember['role'] }).role }
            : m,
        );
        return json({ members });
      },
      'DELETE /api/workspaces/ws_team/members/u_ada': () => {
        members = members.filter((m) => m.user_id !== 'u_ada');
        return json({ members });
      },
      'DELETE /api/workspaces/ws_team': () => new Response(null, { status: 204 }),
      'POST /api/workspaces': (init) => {
        const created = { ...team('owner'), id: 'ws_new', name: (bodyOf(init) as { name: string }).name };
        made.push(created);
        return json(created, 201);
      },
    });
    vi.stubGlobal('fetch', fetchMock);
  }

  beforeEach(() => {
    members = [ADA, BOB];
    made = [];
    signInAs();
  });
  afterEach(() => {
    setCurrentWorkspace(null);
    vi.unstubAllGlobals();
  });

  it("lets an owner add a member, says the server's refusal beside the email field, and change a role", async () => {
    serve('owner');
    setCurrentWorkspace('ws_team');
    const user = userEvent.setup();
    renderApp('/workspace');
    const table = await screen.findByTestId('workspace-members-table');
    expect(within(table).getAllByTestId('workspace-member-row')).toHaveLength(2);
    expect(screen.getByTestId('workspace-name')).toHaveValue('Checkout team');

    await user.type(screen.getByTestId('workspace-member-email'), 'nobody@example.com');
    await user.selectOptions(screen.getByTestId('workspace-member-role'), 'viewer');
    await user.click(screen.getByTestId('workspace-member-add'));
    expect(await screen.findByTestId('workspace-member-email-error')).toHaveTextContent(
      'No account has this email address: ask them to register first',
    );

    await user.clear(screen.getByTestId('workspace-member-email'));
    await user.type(screen.getByTestId('workspace-member-email'), 'cy@example.com');
    await user.click(screen.getByTestId('workspace-member-add'));
    await waitFor(() => expect(within(table).getAllByTestId('workspace-member-row')).toHaveLength(3));
    const added = fetchMock.mock.calls.filter(
      ([url, init]) => url === '/api/workspaces/ws_team/members' && init?.method === 'POST',
    );
    expect(bodyOf(added.at(-1)![1])).toEqual({ email: 'cy@example.com', role: 'viewer' });

    const bobRow = within(table).getAllByTestId('workspace-member-row')[1]!;
    await user.selectOptions(within(bobRow).getByTestId('workspace-member-role-select'), 'owner');
    expect(await screen.findByText('bob@example.com is now Owner')).toBeInTheDocument();
    // No Remove beside the owner's own row: leaving is below.
    expect(
      within(within(table).getAllByTestId('workspace-member-row')[0]!).queryByTestId(
        'workspace-member-remove',
      ),
    ).toBeNull();
  });

  it('shows a viewer the members without the owner controls, and lets them leave', async () => {
    serve('viewer');
    setCurrentWorkspace('ws_team');
    const user = userEvent.setup();
    const { router } = renderApp('/workspace');
    await screen.findByTestId('workspace-members-table');
    expect(screen.queryByTestId('workspace-add-member')).toBeNull();
    expect(screen.queryByTestId('workspace-member-remove')).toBeNull();
    expect(screen.queryByTestId('workspace-delete')).toBeNull();
    expect(screen.queryByTestId('workspace-save')).toBeNull();

    await user.click(screen.getByTestId('workspace-leave'));
    expect(await answerConfirm(user, true)).toBe(
      'Leave "Checkout team"? You stop seeing its plans and results.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(currentWorkspaceId()).toBeNull();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/workspaces/ws_team/members/u_ada' && init?.method === 'DELETE',
      ),
    ).toBe(true);
  });

  it('deletes a team workspace after the question, back in the personal one', async () => {
    serve('owner');
    setCurrentWorkspace('ws_team');
    const user = userEvent.setup();
    const { router } = renderApp('/workspace');
    await user.click(await screen.findByTestId('workspace-delete'));
    await answerConfirm(user, false);
    expect(currentWorkspaceId()).toBe('ws_team');
    await user.click(screen.getByTestId('workspace-delete'));
    await answerConfirm(user, true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(currentWorkspaceId()).toBeNull();
  });

  it('says a personal workspace is yours alone and makes a team workspace, which becomes the current one', async () => {
    serve('owner');
    const user = userEvent.setup();
    renderApp('/workspace');
    expect(await screen.findByTestId('workspace-personal')).toHaveTextContent(
      'This workspace is yours alone',
    );
    expect(screen.queryByTestId('workspace-members')).toBeNull();
    await user.click(screen.getByTestId('workspace-create-submit'));
    expect(await screen.findByText('Enter a name for the workspace')).toBeInTheDocument();
    await user.type(screen.getByTestId('workspace-create-name'), 'Payments');
    await user.click(screen.getByTestId('workspace-create-submit'));
    await waitFor(() => expect(currentWorkspaceId()).toBe('ws_new'));
    expect(
      await screen.findByText('Workspace "Payments" made; you are working in it now'),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('workspace-members')).toBeInTheDocument();
    const created = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/workspaces' && init?.method === 'POST',
    );
    // The user's own zone is offered first.
    expect(bodyOf(created![1])).toEqual({
      name: 'Payments',
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });
});
