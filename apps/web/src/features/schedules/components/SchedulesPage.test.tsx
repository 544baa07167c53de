import { type Schedule, ScheduleSchema } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

/** Schedules as the server answers them: parsed by the model's schema, so a change of the wire shape fails here. */
const STARTED: Schedule = ScheduleSchema.parse({
  id: 's-1',
  plan_id: 'p-load',
  plan_kind: 'load',
  plan_name: 'Checkout load',
  test_type: 'performance',
  cron: '0 2 * * 1-5',
  timezone: 'Asia/Seoul',
  description: 'At 02:00, Monday through Friday (Asia/Seoul)',
  enabled: true,
  channel_ids: [],
  next_runs: ['2030-01-01T17:00:00.000Z'],
  last_run: { at: '2029-12-31T17:00:00.000Z', outcome: 'started', run_id: 'run_abc', reason: null },
  created_at: '2029-12-01T00:00:00.000Z',
  updated_at: '2029-12-01T00:00:00.000Z',
});
const SKIPPED: Schedule = ScheduleSchema.parse({
  ...STARTED,
  id: 's-2',
  plan_id: 'p-api',
  plan_kind: 'functional',
  plan_name: 'Nightly API',
  test_type: 'api',
  cron: '*/30 * * * *',
  timezone: 'UTC',
  last_run: { at: '2030-01-01T00:30:00.000Z', outcome: 'skipped', run_id: 'fc_going', reason: 'x' },
});

let schedules: Schedule[];
let fetchMock: FetchMock;

beforeEach(() => {
  schedules = [STARTED, SKIPPED];
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/schedules': () => json({ schedules }),
    'GET /api/get-test-plans': () => json([{ id: 'p-load', name: 'Checkout load' }]),
    'GET /api/functional/get-test-configs': () => json([{ id: 'p-api', test_name: 'Nightly API' }]),
    'GET /api/notification-channels': () =>
      json({
        limit: 50,
        channels: [
          {
            id: 'nch_1',
            type: 'slack',
            name: 'Team Slack',
            url: 'https://hooks.slack.com/…',
            secret_hint: null,
            events: ['run_failed'],
            created_at: '2029-12-01T00:00:00.000Z',
            last_delivery: null,
          },
        ],
      }),
    'POST /api/schedules': (init) => {
      const body = bodyOf(init) as { plan_id: string; cron: string; timezone: string };
      const created = ScheduleSchema.parse({
        ...SKIPPED,
        id: 's-3',
        plan_id: body.plan_id,
        cron: body.cron,
        timezone: body.timezone,
        last_run: null,
      });
      schedules = [created, ...schedules];
      return json(created, 201, 'Created');
    },
    'PUT /api/schedules/s-1': () => {
      schedules = schedules.map((s) => (s.id === 's-1' ? { ...s, enabled: false, next_runs: [] } : s));
      return json(schedules[0]);
    },
  });
  vi.stubGlobal('fetch', fetchMock);
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

describe('Schedules', () => {
  it('lists each schedule with its times in words, its next run in its zone and what happened last', async () => {
    renderApp('/schedules');
    const rows = await screen.findAllByTestId('schedule-row');
    expect(rows).toHaveLength(2);
    const [load, api] = rows as [HTMLElement, HTMLElement];
    expect(within(load).getByTestId('schedule-row-when')).toHaveTextContent(
      'At 02:00, Monday through Friday (Asia/Seoul)',
    );
    // 17:00 UTC is 02:00 the next day in Seoul.
    expect(within(load).getByTestId('schedule-row-next')).toHaveTextContent(/Jan 2, 2030, 02:00/);
    expect(within(load).getByTestId('schedule-row-outcome')).toHaveTextContent('Started');
    expect(within(load).getByRole('link', { name: 'View run' })).toHaveAttribute(
      'href',
      '/test-result/run_abc',
    );
    expect(within(api).getByTestId('schedule-row-outcome')).toHaveTextContent('Skipped');
    expect(within(api).getByTestId('schedule-row-last')).toHaveTextContent(
      'The previous run of this plan was still going.',
    );
    expect(within(api).getByRole('link', { name: 'View run' })).toHaveAttribute(
      'href',
      '/functional-test-result/fc_going',
    );
  });

  it('previews the expression while it is typed, says what is wrong in the field, and adds the schedule', async () => {
    const user = userEvent.setup();
    renderApp('/schedules');
    await screen.findAllByTestId('schedule-row');
    const cron = screen.getByTestId('schedule-cron');
    await user.clear(cron);
    await user.type(cron, '0 2 * *');
    expect(screen.getByTestId('schedule-preview-problem')).toHaveTextContent(
      'A cron expression has five fields (minute hour day-of-month month day-of-week); this one has 4',
    );
    await user.type(cron, ' 1-5');
    await user.selectOptions(screen.getByTestId('schedule-timezone'), 'UTC');
    expect(screen.getByTestId('schedule-preview-words')).toHaveTextContent(
      'At 02:00, Monday through Friday (UTC)',
    );
    expect(within(screen.getByTestId('schedule-preview-next')).getAllByRole('listitem')).toHaveLength(5);

    await user.click(screen.getByTestId('schedule-add'));
    expect(await screen.findByText('Choose the plan to run')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('schedule-plan'), 'p-api');
    await user.click(screen.getByRole('checkbox', { name: 'Team Slack' }));
    await user.click(screen.getByTestId('schedule-add'));
    await waitFor(() => expect(screen.getAllByTestId('schedule-row')).toHaveLength(3));
    const posted = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/schedules' && init?.method === 'POST',
    );
    expect(bodyOf(posted?.[1])).toEqual({
      plan_id: 'p-api',
      cron: '0 2 * * 1-5',
      timezone: 'UTC',
      enabled: true,
      channel_ids: ['nch_1'],
    });
  });

  it('turns a schedule off, and speaks Korean', async () => {
    const user = userEvent.setup();
    renderApp('/schedules', { language: 'ko' });
    const [load] = await screen.findAllByTestId('schedule-row');
    expect(within(load!).getByTestId('schedule-row-when')).toHaveTextContent(
      '02:00, 월요일부터 금요일까지 (Asia/Seoul)',
    );
    await user.click(within(load!).getByTestId('schedule-toggle'));
    await waitFor(() =>
      expect(screen.getAllByTestId('schedule-row')[0]).toHaveAttribute('data-enabled', 'false'),
    );
    expect(
      within(screen.getAllByTestId('schedule-row')[0]!).getByTestId('schedule-row-next'),
    ).toHaveTextContent('꺼짐');
  });

  it("offers the current workspace's time zone first, and shows a viewer the list without the form or switches", async () => {
    const team = { id: 'ws_team', name: 'Seoul team', personal: false, members: 2 };
    let role: 'editor' | 'viewer' = 'editor';
    const others = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) =>
      input === '/api/workspaces'
        ? Promise.resolve(
            json({
              workspaces: [
                { id: 'u_ada', name: 'Ada', personal: true, role: 'owner', timezone: 'UTC', members: 1 },
                { ...team, role, timezone: 'Pacific/Auckland' },
              ],
            }),
          )
        : others(input, init),
    );
    setCurrentWorkspace('ws_team');
    const first = renderApp('/schedules');
    await waitFor(() => expect(screen.getByTestId('schedule-timezone')).toHaveValue('Pacific/Auckland'));
    first.unmount();

    role = 'viewer';
    renderApp('/schedules');
    expect(await screen.findByTestId('viewer-notice')).toHaveTextContent('You are a viewer in "Seoul team"');
    expect(await screen.findAllByTestId('schedule-row')).toHaveLength(2);
    expect(screen.queryByTestId('schedule-form')).toBeNull();
    expect(screen.queryByTestId('schedule-toggle')).toBeNull();
    expect(screen.queryByTestId('schedule-delete')).toBeNull();
    setCurrentWorkspace(null);
  });
});
