import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { createFetchMock, json, renderWithRouter, signInAs } from '@/test/render';
import { FunctionalActionBar } from './FunctionalActionBar';

const editor = {
  busy: null,
  savedId: 'fc_1',
  dirty: false,
  save: vi.fn(() => Promise.resolve()),
  remove: vi.fn(() => Promise.resolve()),
  start: vi.fn(() => Promise.resolve()),
};

function serveRole(role: 'editor' | 'viewer') {
  vi.stubGlobal(
    'fetch',
    createFetchMock({
      'GET /api/workspaces': () =>
        json({
          workspaces: [
            { id: 'u_ada', name: 'Ada', personal: true, role: 'owner', timezone: 'UTC', members: 1 },
            { id: 'ws_team', name: 'QA team', personal: false, role, timezone: 'UTC', members: 2 },
          ],
        }),
    }),
  );
}

function renderBar() {
  return renderWithRouter(
    <FunctionalActionBar
      editor={editor}
      disabled={false}
      empty={false}
      startLabel="Start Test"
      emptyHint=""
    />,
  );
}

describe('FunctionalActionBar in a team workspace (docs/adr/0035-workspaces-and-roles.md)', () => {
  beforeEach(() => {
    signInAs();
    setCurrentWorkspace('ws_team');
  });
  afterEach(() => {
    setCurrentWorkspace(null);
    vi.unstubAllGlobals();
  });

  it('offers an editor Delete, Update and Start', async () => {
    serveRole('editor');
    renderBar();
    expect(await screen.findByTestId('functional-start')).toBeEnabled();
    expect(screen.getByTestId('functional-delete')).toBeEnabled();
    expect(screen.getByTestId('functional-save')).toBeEnabled();
    expect(screen.queryByTestId('viewer-notice')).toBeNull();
  });

  it('offers a viewer no Delete or Start, and Update disabled with the reason', async () => {
    serveRole('viewer');
    renderBar();
    expect(await screen.findByTestId('viewer-notice')).toHaveTextContent('You are a viewer in "QA team"');
    await waitFor(() => expect(screen.queryByTestId('functional-start')).toBeNull());
    expect(screen.queryByTestId('functional-delete')).toBeNull();
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    expect(screen.getByTestId('functional-save')).toHaveAttribute(
      'title',
      'Viewers read results; ask an owner for the editor role',
    );
  });
});
