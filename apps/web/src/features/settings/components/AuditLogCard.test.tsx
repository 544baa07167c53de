import { AuditListSchema } from '@aqa/plan';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, signInAs, TEST_USER } from '@/test/render';

/** The audit log as the server answers it, parsed by the model's schema so a change of shape fails here. */
const LOG = AuditListSchema.parse({
  retention_days: 90,
  entries: [
    {
      id: 'aud_2',
      at: '2030-01-02T10:00:00.000Z',
      actor_email: 'ada@example.com',
      via: 'api_token',
      action: 'ran',
      object: 'functional_run',
      object_id: 'fc_1',
      object_name: 'Nightly API',
      route: 'POST /api/functional/run-test',
      ip: '127.0.0.1',
    },
    {
      id: 'aud_1',
      at: '2030-01-02T09:00:00.000Z',
      actor_email: 'ada@example.com',
      via: 'session',
      action: 'deleted',
      object: 'load_plan',
      object_id: 'p-1',
      object_name: null,
      route: 'DELETE /api/delete-test-plan/:id',
      ip: '127.0.0.1',
    },
  ],
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/tokens': () => json({ tokens: [], limit: 50 }),
      'GET /api/audit': () => json(LOG),
    }),
  );
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

describe('Settings → Audit log', () => {
  it('lists who did what to what, says when a token did it and how long entries are kept, in English and Korean', async () => {
    const { unmount } = renderApp('/settings');
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows[0]).toHaveTextContent('ada@example.com ran functional test run Nightly API');
    expect(within(rows[0]!).getByText('API token')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('ada@example.com deleted load test plan p-1');
    expect(screen.getByTestId('audit-log')).toHaveTextContent('Entries are kept for 90 days.');
    unmount();
    renderApp('/settings', { language: 'ko' });
    const korean = await screen.findAllByTestId('audit-row');
    expect(korean[1]).toHaveTextContent('ada@example.com — 부하 테스트 플랜 삭제함 p-1');
  });
});
