import type { Delivery, NotificationChannel } from '@aqa/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const HOOK: NotificationChannel = {
  id: 'nch_1',
  type: 'webhook',
  name: 'Team hook',
  url: 'https://hooks.example.test/aqa',
  secret_hint: '…wxyz',
  events: ['run_failed', 'recovered'],
  created_at: '2030-01-02T10:00:00.000Z',
  last_delivery: {
    status: 'failed',
    event: 'run_failed',
    at: '2030-01-02T11:00:00.000Z',
    http_status: 500,
    answer: 'receiver broke (500)',
  },
};
const SLACK: NotificationChannel = {
  id: 'nch_2',
  type: 'slack',
  name: 'Slack #qa',
  url: 'https://hooks.slack.com/servic…',
  secret_hint: null,
  events: ['threshold_failed'],
  created_at: '2030-01-01T10:00:00.000Z',
  last_delivery: null,
};
const FAILED: Delivery = {
  id: 'ndl_1',
  run_id: 'fc_run1',
  event: 'run_failed',
  status: 'failed',
  attempts: [1, 2, 3].map((attempt) => ({
    attempt,
    status: attempt === 3 ? ('failed' as const) : ('retrying' as const),
    http_status: 500,
    answer: 'receiver broke (500)',
    started_at: '2030-01-02T11:00:00.000Z',
    ended_at: '2030-01-02T11:00:01.000Z',
  })),
  next_attempt_at: null,
  created_at: '2030-01-02T11:00:00.000Z',
  updated_at: '2030-01-02T11:00:06.000Z',
};

let channels: NotificationChannel[];
let planChannels: string[];
let fetchMock: FetchMock;

beforeEach(() => {
  channels = [HOOK, SLACK];
  planChannels = ['nch_1'];
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/notification-channels': () => json({ channels, limit: 50 }),
    'POST /api/notification-channels': (init) => {
      const body = bodyOf(init) as {
        type: 'webhook';
        url: string;
        name?: string;
        events: NotificationChannel['events'];
      };
      channels = [
        {
          ...HOOK,
          id: 'nch_3',
          name: body.name ?? body.url,
          url: body.url,
          events: body.events,
          last_delivery: null,
        },
        ...channels,
      ];
      return json({ id: 'nch_3' }, 201, 'Created');
    },
    'GET /api/notification-channels/nch_1/deliveries': () => json({ deliveries: [FAILED] }),
    'POST /api/notification-channels/nch_2/test': () => json({ delivery_id: 'ndl_2' }, 202, 'Accepted'),
    'GET /api/get-test-plans': () => json([]),
    'GET /api/functional/get-test-configs': () => json([{ id: 'fp_1', test_name: 'Nightly API' }]),
    'GET /api/functional/plans/fp_1/notifications': () => json({ channel_ids: planChannels }),
    'PUT /api/functional/plans/fp_1/notifications': (init) => {
      planChannels = (bodyOf(init) as { channel_ids: string[] }).channel_ids;
      return json({ channel_ids: planChannels });
    },
    'DELETE /api/notification-channels/nch_2': () => {
      channels = channels.filter((c) => c.id !== 'nch_2');
      return new Response(null, { status: 204 });
    },
  });
  vi.stubGlobal('fetch', fetchMock);
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (url as string).startsWith(path) && (init?.method ?? 'GET').toUpperCase() === method,
  );

describe('Settings → Notifications', () => {
  it('lists channels with their type, events and last delivery, and shows a channel’s delivery log', async () => {
    const user = userEvent.setup();
    renderApp('/settings/notifications');
    const rows = await screen.findAllByTestId('channel-row');
    expect(rows.map((row) => within(row).getByTestId('channel-type').textContent)).toEqual([
      'Webhook',
      'Slack',
    ]);
    const [hook, slack] = rows as [HTMLElement, HTMLElement];
    expect(
      within(hook)
        .getAllByTestId('channel-event')
        .map((e) => e.textContent),
    ).toEqual(['The run failed', 'It passed again']);
    expect(within(hook).getByTestId('channel-last-status')).toHaveTextContent('Failing');
    expect(within(hook).getByTestId('channel-last')).toHaveTextContent('HTTP 500');
    expect(hook).toHaveTextContent('secret …wxyz');
    expect(within(slack).getByTestId('channel-last')).toHaveTextContent('Nothing sent yet');

    await user.click(within(hook).getByTestId('channel-log-toggle'));
    const attempts = await within(hook).findAllByTestId('delivery-attempt');
    expect(attempts).toHaveLength(3);
    expect(attempts[2]).toHaveTextContent('Attempt 3 · HTTP 500 · receiver broke (500)');
    expect(within(hook).getByTestId('delivery-status')).toHaveTextContent('Failing');
  });

  it('checks the form before sending, naming the field, then adds the channel', async () => {
    const user = userEvent.setup();
    renderApp('/settings/notifications');
    await screen.findAllByTestId('channel-row');
    await user.click(screen.getByTestId('channel-event-run_failed'));
    await user.type(screen.getByTestId('channel-url-input'), 'hooks.example.test');
    await user.click(screen.getByTestId('channel-add'));
    expect(screen.getByTestId('channel-url-error')).toHaveTextContent(
      'The address must start with http:// or https://',
    );
    expect(screen.getByTestId('channel-events-error')).toHaveTextContent('Choose at least one event');
    expect(calls('POST', '/api/notification-channels')).toHaveLength(0);

    await user.clear(screen.getByTestId('channel-url-input'));
    await user.type(screen.getByTestId('channel-url-input'), 'https://hooks.example.test/new');
    await user.type(screen.getByTestId('channel-name-input'), 'New hook');
    await user.type(screen.getByTestId('channel-secret-input'), 'a-secret-of-enough-length');
    await user.click(screen.getByTestId('channel-event-threshold_failed'));
    await user.click(screen.getByTestId('channel-add'));
    await waitFor(() => expect(calls('POST', '/api/notification-channels')).toHaveLength(1));
    expect(bodyOf(calls('POST', '/api/notification-channels')[0]?.[1])).toEqual({
      type: 'webhook',
      url: 'https://hooks.example.test/new',
      name: 'New hook',
      secret: 'a-secret-of-enough-length',
      events: ['threshold_failed'],
    });
    await waitFor(() => expect(screen.getAllByTestId('channel-row')).toHaveLength(3));
    // Typing key by key is slow on a loaded machine.
  }, 15_000);

  it('sends a test and deletes a channel after the confirmation', async () => {
    const user = userEvent.setup();
    renderApp('/settings/notifications');
    const slack = (await screen.findAllByTestId('channel-row'))[1]!;
    await user.click(within(slack).getByTestId('channel-test'));
    await waitFor(() => expect(calls('POST', '/api/notification-channels/nch_2/test')).toHaveLength(1));
    await user.click(within(slack).getByTestId('channel-delete'));
    expect(screen.getByTestId('confirm-message')).toHaveTextContent('Delete the channel "Slack #qa"?');
    await user.click(screen.getByTestId('confirm-accept'));
    await waitFor(() => expect(screen.getAllByTestId('channel-row')).toHaveLength(1));
    expect(calls('DELETE', '/api/notification-channels/nch_2')).toHaveLength(1);
  });

  it("chooses a plan's channels", async () => {
    const user = userEvent.setup();
    renderApp('/settings/notifications');
    await screen.findAllByTestId('channel-row');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Nightly API' })).toBeInTheDocument());
    await user.selectOptions(screen.getByTestId('plan-choice'), 'functional:fp_1');
    await waitFor(() => expect(screen.getByTestId('plan-channel-nch_1')).toBeChecked());
    expect(screen.getByTestId('plan-channel-nch_2')).not.toBeChecked();
    await user.click(screen.getByTestId('plan-channel-nch_2'));
    await user.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(calls('PUT', '/api/functional/plans/fp_1/notifications')).toHaveLength(1));
    expect(bodyOf(calls('PUT', '/api/functional/plans/fp_1/notifications')[0]?.[1])).toEqual({
      channel_ids: ['nch_1', 'nch_2'],
    });
  });

  it('speaks Korean', async () => {
    renderApp('/settings/notifications', { language: 'ko' });
    const [hook] = await screen.findAllByTestId('channel-row');
    expect(within(hook!).getByTestId('channel-type')).toHaveTextContent('웹훅');
    expect(within(hook!).getByTestId('channel-last-status')).toHaveTextContent('실패');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('알림');
    expect(screen.getByTestId('channel-add')).toHaveTextContent('채널 추가');
  });
});
