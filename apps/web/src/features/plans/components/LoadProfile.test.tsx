import { migratePlan } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChartProps } from 'react-chartjs-2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

// jsdom has no canvas: the preview's line is read from the data and options it is given.
vi.mock('react-chartjs-2', () => ({
  Line: ({ data, options }: ChartProps<'line'>) => (
    <canvas
      data-testid="line-chart"
      data-points={JSON.stringify(data.datasets[0]?.data)}
      data-x-title={String(options?.scales?.x?.title?.text)}
      data-y-title={String(options?.scales?.y?.title?.text)}
    />
  ),
}));

type User = ReturnType<typeof userEvent.setup>;

/** Replaces a field's value in one paste. */
async function replace(user: User, element: HTMLElement, text: string) {
  await user.clear(element);
  await user.click(element);
  await user.paste(text);
}

const PROFILE = {
  model: 'users',
  start: 0,
  stages: [
    { duration: '30s', target: 20 },
    { duration: '90s', target: 20 },
    { duration: '10s', target: 0 },
  ],
  graceful_stop: '15s',
} as const;

/** A plan with a load profile as GET /api/get-test-plan answers it. */
function savedPlan() {
  return {
    ...migratePlan({
      name: 'Shaped checkout',
      tool: 'k6',
      urls: [{ method: 'GET', url: 'https://api.test/orders' }],
      load_profile: PROFILE,
    }),
    id: 'plan-9',
    _id: 'plan-9',
    script: '',
    script_edited: false,
  };
}

describe('the load profile of the URL-input screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;

  beforeEach(() => {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/save-test-plan': () =>
        json(
          { id: 'plan-1', _id: 'plan-1', plan_id: 'plan-1', message: 'Test plan saved successfully' },
          201,
        ),
      'PUT /api/update-test-plan/plan-9': () =>
        json({ id: 'plan-9', message: 'Test plan updated successfully' }),
      'GET /api/get-test-plan/plan-9': () => json(savedPlan()),
      'POST /api/generate-script': () => json({ script: 'generated', filename: 'x.js', warnings: [] }),
    });
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openScreen(path = '/create-test/url-input') {
    const view = renderApp(path);
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    return view;
  }

  async function nameAndUrl(user: User) {
    await replace(user, screen.getByTestId('plan-name'), 'Shaped');
    await replace(user, screen.getByTestId('api-0-url'), 'https://api.test/items');
  }

  const chartPoints = async () =>
    JSON.parse((await screen.findByTestId('line-chart')).getAttribute('data-points') ?? 'null') as unknown;
  const sent = (url: string) => {
    const call = fetchMock.mock.calls.find(([input]) => input === url);
    return call ? (bodyOf(call[1]) as Record<string, unknown>) : undefined;
  };
  const stageValues = () =>
    within(screen.getByTestId('profile-stages'))
      .getAllByRole('listitem')
      .map((_, index) => [
        screen.getByTestId<HTMLInputElement>(`profile-stage-${index}-duration`).value,
        screen.getByTestId<HTMLInputElement>(`profile-stage-${index}-target`).value,
      ]);

  it('is off by default: users and duration are edited as before and no profile is sent', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('profile-toggle')).not.toBeChecked();
    expect(screen.queryByTestId('profile-stages')).toBeNull();
    expect(screen.getByTestId('plan-users')).not.toHaveAttribute('readonly');
    await nameAndUrl(user);
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    expect(sent('/api/save-test-plan')).not.toHaveProperty('load_profile');
  });

  it('fills Stress from a peak and a length, shows the totals read-only, previews the line and saves it', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('profile-toggle'));
    // Turned on, the profile is the plan's flat load: 10 users from 0 s for 1 minute.
    expect(stageValues()).toEqual([['1m', '10']]);
    expect(screen.getByText(/each user repeats the plan’s calls/)).toBeInTheDocument();
    expect(screen.getByText(/however slowly the target answers/)).toBeInTheDocument();

    await replace(user, screen.getByTestId('profile-peak'), '300');
    await replace(user, screen.getByTestId('profile-length'), '5m');
    await user.click(screen.getByTestId('profile-preset-stress'));
    expect(stageValues()).toEqual([
      ['1m', '300'],
      ['210s', '300'],
      ['30s', '0'],
    ]);
    expect(screen.getByTestId('plan-users')).toHaveValue(300);
    expect(screen.getByTestId('plan-users')).toHaveAttribute('readonly');
    expect(screen.getByTestId('plan-duration')).toHaveValue(5);
    expect(screen.getByTestId('plan-duration')).toHaveAttribute('readonly');
    expect(screen.getAllByText(/Set by the load profile/)).toHaveLength(2);
    expect(screen.getByTestId('profile-scripts-note')).toHaveTextContent(
      'Generated JMeter, K6, Locust and Taurus scripts follow the profile as near as each tool comes',
    );
    expect(await chartPoints()).toEqual([
      { x: 0, y: 0 },
      { x: 60, y: 300 },
      { x: 270, y: 300 },
      { x: 300, y: 0 },
    ]);
    const chart = screen.getByTestId('line-chart');
    expect(chart).toHaveAttribute('data-x-title', 'Time (s)');
    expect(chart).toHaveAttribute('data-y-title', 'Virtual users');

    // An edited stage moves the line and the totals.
    await replace(user, screen.getByTestId('profile-stage-1-target'), '350');
    await replace(user, screen.getByTestId('profile-stage-2-duration'), '2m');
    expect(await chartPoints()).toEqual([
      { x: 0, y: 0 },
      { x: 60, y: 300 },
      { x: 270, y: 350 },
      { x: 390, y: 0 },
    ]);
    expect(screen.getByTestId('plan-users')).toHaveValue(350);
    expect(screen.getByTestId('plan-duration')).toHaveValue(7);

    await nameAndUrl(user);
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    expect(sent('/api/save-test-plan')).toMatchObject({
      concurrent_users: 350,
      duration: 7,
      load_profile: {
        model: 'users',
        start: 0,
        stages: [
          { duration: '1m', target: 300 },
          { duration: '210s', target: 350 },
          { duration: '2m', target: 0 },
        ],
        graceful_stop: '10s',
      },
    });

    // The generated script is asked for with the profile, so it follows it.
    await user.click(screen.getByTestId('generate-plan'));
    await waitFor(() => expect(sent('/api/generate-script')).toBeDefined());
    expect(sent('/api/generate-script')).toMatchObject({
      load_profile: { model: 'users', stages: [{ target: 300 }, { target: 350 }, { target: 0 }] },
    });
  });

  it('shows a bad stage under its field and saves nothing until it reads', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('profile-toggle'));
    await nameAndUrl(user);
    await replace(user, screen.getByTestId('profile-stage-0-duration'), '5 minutes');
    expect(screen.getByTestId('profile-stage-0-duration-error')).toHaveTextContent(
      'Stage duration "5 minutes" is not understood: write e.g. 500ms, 30s, 2m or 1h',
    );
    expect(screen.getByTestId('profile-stage-0-duration')).toHaveAttribute('aria-invalid', 'true');
    // No line is drawn from a profile that does not read.
    expect(screen.getByTestId('profile-chart')).toHaveTextContent(
      'The preview appears once the profile has no problems.',
    );
    await replace(user, screen.getByTestId('profile-stage-0-target'), '2.5');
    expect(screen.getByTestId('profile-stage-0-target-error')).toHaveTextContent(
      'In the users model a stage target is a whole number of users',
    );

    await user.click(screen.getByTestId('save-plan'));
    expect(noticeTexts().at(-1)).toBe(
      'Failed to save test plan: Load profile: Stage duration "5 minutes" is not understood: write e.g. 500ms, 30s, 2m or 1h',
    );
    expect(sent('/api/save-test-plan')).toBeUndefined();

    await replace(user, screen.getByTestId('profile-stage-0-duration'), '5m');
    await replace(user, screen.getByTestId('profile-stage-0-target'), '4');
    expect(screen.queryByTestId('profile-stage-0-duration-error')).toBeNull();
    await user.click(screen.getByTestId('save-plan'));
    // The peak is the start's 10 users, above the stage's 4.
    await waitFor(() =>
      expect(sent('/api/save-test-plan')).toMatchObject({ concurrent_users: 10, duration: 5 }),
    );
  });

  it('adds and removes stages, and keeps the last one', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('profile-toggle'));
    expect(screen.getByTestId('profile-stage-0-remove')).toBeDisabled();
    await user.click(screen.getByTestId('profile-add-stage'));
    expect(stageValues()).toEqual([
      ['1m', '10'],
      ['1m', '10'],
    ]);
    await replace(user, screen.getByTestId('profile-start'), '0');
    await replace(user, screen.getByTestId('profile-stage-1-target'), '0');
    expect(screen.queryByTestId('profile-stages-error')).toBeNull();
    await user.click(screen.getByTestId('profile-stage-0-remove'));
    expect(stageValues()).toEqual([['1m', '0']]);
    expect(screen.getByTestId('profile-stages-error')).toHaveTextContent(
      'A load profile must reach a target above 0 somewhere',
    );
  });

  it('fills Breakpoint as a rising arrival rate and adds the abort thresholds that stop it', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('profile-toggle'));
    await replace(user, screen.getByTestId('profile-peak'), '50');
    await replace(user, screen.getByTestId('profile-length'), '10m');
    await user.click(screen.getByTestId('profile-preset-breakpoint'));
    expect(screen.getByTestId('profile-model-arrival_rate')).toBeChecked();
    expect(stageValues()).toEqual([['10m', '50']]);
    expect(screen.getByTestId('profile-breakpoint-note')).toHaveTextContent(
      'Breakpoint added the abort thresholds error_rate<5%, p95<2000: the run stops when one is crossed',
    );
    expect(screen.getByTestId('plan-abort-thresholds')).toHaveValue('error_rate<5%\np95<2000');
    expect(screen.getByTestId('line-chart')).toHaveAttribute('data-y-title', 'Iterations per second');
    // The pool by default: the peak rate, at least 10.
    expect(screen.getByTestId('plan-users')).toHaveValue(50);
    await replace(user, screen.getByTestId('profile-max-users'), '80');
    expect(screen.getByTestId('plan-users')).toHaveValue(80);

    await nameAndUrl(user);
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(sent('/api/save-test-plan')).toBeDefined());
    expect(sent('/api/save-test-plan')).toMatchObject({
      concurrent_users: 80,
      duration: 10,
      abort_thresholds: ['error_rate<5%', 'p95<2000'],
      load_profile: { model: 'arrival_rate', max_users: 80, stages: [{ duration: '10m', target: 50 }] },
    });
    expect(sent('/api/save-test-plan')).not.toHaveProperty('thresholds');
  });

  it('edits the abort thresholds as a list, with or without a profile, naming one that does not read', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    // A plan without a profile may have them too (docs/adr/0027-load-profiles.md "Abort criteria").
    expect(screen.getByTestId('profile-toggle')).not.toBeChecked();
    const list = screen.getByTestId('plan-abort-thresholds');
    await user.type(list, 'p95<800{Enter}{Enter}p95 < soon');
    await nameAndUrl(user);
    await user.click(screen.getByTestId('save-plan'));
    // The plan's own check, shown under the field as the other settings' problems are.
    expect(await screen.findByTestId('plan-abort-thresholds-error')).toHaveTextContent(
      'threshold "p95 < soon" is not understood',
    );
    expect(sent('/api/save-test-plan')).toBeUndefined();
    await user.type(
      list,
      '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}error_rate<2%',
    );
    expect(screen.queryByTestId('plan-abort-thresholds-error')).toBeNull();
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(sent('/api/save-test-plan')).toBeDefined());
    // The blank line is no threshold.
    expect(sent('/api/save-test-plan')).toMatchObject({ abort_thresholds: ['p95<800', 'error_rate<2%'] });
    expect(sent('/api/save-test-plan')).not.toHaveProperty('load_profile');
  });

  it('opens a saved profile, sends it back unchanged on Update, and sends none once turned off', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen('/create-test/url-input?planId=plan-9');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Shaped checkout'));
    expect(screen.getByTestId('profile-toggle')).toBeChecked();
    expect(stageValues()).toEqual([
      ['30s', '20'],
      ['90s', '20'],
      ['10s', '0'],
    ]);
    expect(screen.getByTestId('profile-graceful-stop')).toHaveValue('15s');
    expect(screen.getByTestId('plan-users')).toHaveValue(20);
    expect(screen.getByTestId('plan-duration')).toHaveValue(3);
    expect(screen.getByTestId('save-status')).toHaveTextContent('All changes saved');

    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan updated successfully!'));
    expect(sent('/api/update-test-plan/plan-9')).toMatchObject({
      concurrent_users: 20,
      duration: 3,
      load_profile: PROFILE,
    });

    fetchMock.mockClear();
    await user.click(screen.getByTestId('profile-toggle'));
    expect(screen.getByTestId('plan-users')).not.toHaveAttribute('readonly');
    expect(screen.getByTestId('save-status')).toHaveTextContent('Unsaved changes');
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(sent('/api/update-test-plan/plan-9')).toBeDefined());
    expect(sent('/api/update-test-plan/plan-9')).not.toHaveProperty('load_profile');
  });
});
