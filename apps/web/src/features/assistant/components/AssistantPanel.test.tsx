import { PerfPlanSchema, type AskAnswer, type PerfPlan } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bodyOf,
  createFetchMock,
  json,
  mockFetch,
  renderWithRouter,
  signInAs,
  type FetchMock,
} from '@/test/render';
import { CurrentPlanProvider, usePublishCurrentPlan } from '../current-plan';
import { AssistantLauncher } from './AssistantLauncher';

/*
 * James's panel (docs/design.md §10) against a stand-in plan editor that publishes its plan the way the
 * real editors do, and a fetch that answers James's calls.
 */

function startPlan(): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Shop',
    concurrent_users: 10,
    urls: [
      { name: 'Login', method: 'POST', url: 'https://shop.test/login' },
      { name: 'Catalog', url: 'https://shop.test/catalog' },
    ],
  });
}

/** An editor holding a plan in its state; its fields show what the plan is now. */
function FakeEditor() {
  const [plan, setPlan] = useState(startPlan);
  usePublishCurrentPlan({
    kind: 'performance',
    read: () => plan,
    apply: setPlan,
    checkpoint: () => {
      const saved = plan;
      return () => setPlan(saved);
    },
  });
  return (
    <div>
      <output data-testid="users">{plan.concurrent_users}</output>
      <output data-testid="think-times">{plan.urls.map((url) => url.thinkTime).join(',')}</output>
      <button type="button" onClick={() => setPlan((p) => ({ ...p, duration: p.duration + 1 }))}>
        edit by hand
      </button>
    </div>
  );
}

function renderPanel({ editor = true }: { editor?: boolean } = {}) {
  return renderWithRouter(
    <CurrentPlanProvider>
      {editor && <FakeEditor />}
      <AssistantLauncher />
    </CurrentPlanProvider>,
  );
}

const analyserAnswer: AskAnswer = {
  answer: 'Login failed most: 12 of 40 calls (30%) in your last 3 runs.',
  figures: [
    { label: 'failed calls', value: 12 },
    { label: 'error rate', value: 30, unit: '%' },
  ],
  links: [{ label: 'Last run of Shop', href: '/test-result/run_1' }],
  source: 'analyser',
  understood: true,
};

describe("James's panel", { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  beforeEach(() => {
    signInAs();
    fetchMock = createFetchMock({
      'GET /api/assistant/conversation': () => json({ turns: [] }),
      'POST /api/assistant/ask': () => json(analyserAnswer),
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens with Ctrl+J, greets the user by first name with the three offers, and closes with Escape', async () => {
    const user = userEvent.setup({ delay: null });
    renderPanel();
    expect(screen.getByTestId('james-open')).toHaveAttribute('title', 'Open James, the assistant (Ctrl+J)');
    await user.keyboard('{Control>}j{/Control}');
    const panel = await screen.findByRole('dialog', { name: 'James' });
    expect(panel).toHaveAccessibleDescription('Hi Ada! How can I help with your tests today?');
    expect(
      within(panel)
        .getAllByRole('button')
        .map((button) => button.querySelector('.font-semibold')?.textContent)
        .filter(Boolean),
    ).toEqual(['Adjust current test plan', 'Review saved plans', 'Ask James']);
    // Focus follows the view: its heading, then the first offer again.
    await user.click(within(panel).getByTestId('james-offer-review'));
    expect(within(panel).getByRole('heading', { name: 'Review saved plans' })).toHaveFocus();
    await user.click(within(panel).getByTestId('james-back'));
    expect(within(panel).getByTestId('james-offer-adjust')).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('previews a change before → after, says what it did not understand, applies it and undoes it exactly', async () => {
    const user = userEvent.setup({ delay: null });
    renderPanel();
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-adjust'));
    await user.click(screen.getByTestId('james-adjust-input'));
    await user.paste('double the users and add a 200 ms think time to the login call and make it snappy');
    await user.click(screen.getByTestId('james-adjust-preview'));

    const rows = within(screen.getByTestId('james-adjust-rows')).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Concurrent users', '10', '20'],
      ['Think timeAPI 1 · Login', '5s', '200ms'],
    ]);
    expect(screen.getByTestId('james-adjust-problems')).toHaveTextContent(
      '"make it snappy" was not understood.',
    );
    // Nothing changes before Apply.
    expect(screen.getByTestId('users')).toHaveTextContent('10');

    await user.click(screen.getByTestId('james-adjust-apply'));
    expect(screen.getByTestId('users')).toHaveTextContent('20');
    expect(screen.getByTestId('think-times')).toHaveTextContent('200ms,5s');
    expect(screen.getByTestId('james-adjust-applied')).toHaveTextContent(
      'Applied 2 changes to the plan on screen. Save the plan to keep them.',
    );

    await user.click(screen.getByTestId('james-adjust-undo'));
    expect(screen.getByTestId('users')).toHaveTextContent('10');
    expect(screen.getByTestId('think-times')).toHaveTextContent('5s,5s');
    expect(screen.getByTestId('james-adjust-undone')).toBeInTheDocument();
    expect(screen.queryByTestId('james-adjust-undo')).not.toBeInTheDocument();
  });

  it('does not apply a preview to a plan that was edited since, and shows the new preview', async () => {
    const user = userEvent.setup({ delay: null });
    renderPanel();
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-adjust'));
    await user.click(screen.getByTestId('james-adjust-input'));
    await user.paste('triple the users');
    await user.click(screen.getByTestId('james-adjust-preview'));
    await user.click(screen.getByRole('button', { name: 'edit by hand' }));
    await user.click(screen.getByTestId('james-adjust-apply'));
    expect(screen.getByTestId('users')).toHaveTextContent('10');
    expect(screen.getByText(/The plan changed since the preview/)).toBeInTheDocument();
    await user.click(screen.getByTestId('james-adjust-apply'));
    expect(screen.getByTestId('users')).toHaveTextContent('30');
  });

  it('asks to open a plan first when no plan screen is open', async () => {
    const user = userEvent.setup({ delay: null });
    renderPanel({ editor: false });
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-adjust'));
    expect(screen.getByTestId('james-adjust-no-plan')).toHaveTextContent(
      'Open a test plan first: James adjusts the plan on screen.',
    );
  });

  it('asks James and shows the answer with its source, figures and links; suggestions ask with one click', async () => {
    const user = userEvent.setup({ delay: null });
    renderPanel();
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-ask'));
    await screen.findByText('No questions yet. You could ask:');
    await user.type(screen.getByTestId('james-ask-input'), 'which API fails most?');
    await user.click(screen.getByTestId('james-ask-send'));

    const answer = await screen.findByTestId('james-answer');
    expect(within(answer).getByTestId('james-answer-source')).toHaveTextContent('From your data');
    expect(answer).toHaveTextContent('Login failed most: 12 of 40 calls (30%) in your last 3 runs.');
    expect(within(answer).getByTestId('james-figures')).toHaveTextContent('failed calls12error rate30%');
    expect(within(answer).getByRole('link', { name: 'Last run of Shop' })).toHaveAttribute(
      'href',
      '/test-result/run_1',
    );
    const asked = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(asked?.[1])).toEqual({ question: 'which API fails most?', language: 'en' });

    // James did not understand: its suggestions are questions to click.
    fetchMock.mockImplementation(
      mockFetch({
        'POST /api/assistant/ask': (init) =>
          json(
            (bodyOf(init) as { question: string }).question === 'What does p95 mean?'
              ? {
                  ...analyserAnswer,
                  answer: 'p95: 95% of calls were faster than this.',
                  figures: [],
                  links: [],
                }
              : {
                  answer: 'I cannot answer that from your data.',
                  figures: [],
                  links: [],
                  source: 'analyser',
                  understood: false,
                  suggestions: ['What does p95 mean?', 'Which API fails most?'],
                },
          ),
      }),
    );
    await user.type(screen.getByTestId('james-ask-input'), '사용자는 몇 명?');
    await user.click(screen.getByTestId('james-ask-send'));
    const suggestions = await screen.findByTestId('james-suggestions');
    const lastAsk = fetchMock.mock.calls.at(-1);
    expect(bodyOf(lastAsk?.[1])).toEqual({ question: '사용자는 몇 명?', language: 'ko' });
    await user.click(within(suggestions).getByRole('button', { name: 'What does p95 mean?' }));
    expect(await screen.findByText('p95: 95% of calls were faster than this.')).toBeInTheDocument();
  });

  it('labels a model answer as the model’s and says when a question failed', async () => {
    const user = userEvent.setup({ delay: null });
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/assistant/conversation': () =>
          json({
            turns: [
              {
                id: 't1',
                question: 'why slower?',
                answer: { ...analyserAnswer, answer: 'Because of the database.', source: 'model' },
                asked_at: '2026-11-27T01:00:00.000Z',
              },
              {
                id: 't2',
                question: 'and the cache?',
                answer: {
                  ...analyserAnswer,
                  answer: 'Warm it first.',
                  source: 'model',
                  model: 'llama-3.1-8b',
                },
                asked_at: '2026-11-27T01:01:00.000Z',
              },
            ],
          }),
        'POST /api/assistant/ask': () => json({ detail: 'The analyser is busy' }, 503, 'Service Unavailable'),
      }),
    );
    renderPanel();
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-ask'));
    const [answer, named] = await screen.findAllByTestId('james-answer');
    expect(answer).toHaveAttribute('data-source', 'model');
    expect(within(answer!).getByTestId('james-answer-source')).toHaveTextContent('From a language model');
    expect(within(named!).getByTestId('james-answer-source')).toHaveTextContent(
      'From the model llama-3.1-8b',
    );
    await user.type(screen.getByTestId('james-ask-input'), 'and now?');
    await user.click(screen.getByTestId('james-ask-send'));
    expect(await screen.findByText(/James could not answer: .*The analyser is busy/)).toBeInTheDocument();
  });

  it('reviews saved plans: findings with severity, figures and links', async () => {
    const user = userEvent.setup({ delay: null });
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/assistant/review': () =>
          json({
            findings: [
              {
                kind: 'regression',
                severity: 'problem',
                title: 'Checkout got slower',
                detail: 'p95 rose from 120 ms to 180 ms against the previous run.',
                figures: [
                  { label: 'p95 before', value: 120, unit: 'ms' },
                  { label: 'p95 after', value: 180, unit: 'ms' },
                ],
                links: [{ label: 'Latest run', href: '/test-result/run_2' }],
              },
              {
                kind: 'never_ran',
                severity: 'info',
                title: 'Shop never ran',
                detail: 'Run it once to have figures.',
                figures: [],
                links: [{ label: 'Shop', href: '/create-test/url-input?planId=p1' }],
              },
            ],
          }),
      }),
    );
    renderPanel();
    await user.click(screen.getByTestId('james-open'));
    await user.click(await screen.findByTestId('james-offer-review'));
    const findings = await screen.findAllByTestId('james-finding');
    expect(findings).toHaveLength(2);
    expect(findings[0]).toHaveTextContent('ProblemCheckout got slower');
    expect(within(findings[0]!).getByTestId('james-figures')).toHaveTextContent(
      'p95 before120 msp95 after180 ms',
    );
    expect(within(findings[1]!).getByRole('link', { name: 'Shop' })).toHaveAttribute(
      'href',
      '/create-test/url-input?planId=p1',
    );
    expect(screen.getByText('2 findings')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/assistant/review?language=en');
  });
});
