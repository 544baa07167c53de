import type { Feedback } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

/** The server, as far as the Feedback screen reads it: stores what is sent and lists it back. */
function feedbackServer(): FetchMock {
  const stored: Feedback[] = [];
  return createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/messages': () => json({ messages: [], unread: 0 }),
    'GET /api/tokens': () => json({ tokens: [] }),
    'GET /api/feedback': () => json({ feedback: [...stored].reverse() }),
    'POST /api/feedback': (init) => {
      const sent = bodyOf(init) as {
        kind: Feedback['kind'];
        message: string;
        page?: string;
        run_id?: string;
      };
      if (sent.run_id === 'run_other')
        return json(
          { detail: 'No test result of yours has this id', code: 'RUN_NOT_FOUND' },
          404,
          'Not Found',
        );
      const item: Feedback = {
        id: `fb_${stored.length + 1}`,
        kind: sent.kind,
        message: sent.message,
        page: sent.page ?? null,
        run_id: sent.run_id ?? null,
        created_at: '2030-01-01T10:00:00.000Z',
      };
      stored.push(item);
      return json(item, 201, 'Created');
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

function posts(fetchMock: FetchMock) {
  return fetchMock.mock.calls
    .filter(([url, init]) => urlOf(url).endsWith('/api/feedback') && init?.method === 'POST')
    .map(([, init]) => bodyOf(init));
}

describe('Feedback', () => {
  it('fills the page the user came from, sends the feedback and lists it with its date', async () => {
    const user = userEvent.setup();
    const fetchMock = feedbackServer();
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
    renderApp('/settings');
    await user.click(await screen.findByTestId('nav-feedback'));
    expect(await screen.findByTestId('feedback-sent-empty')).toBeInTheDocument();
    expect(screen.getByTestId('feedback-page-field')).toHaveValue('/settings');

    // Nothing written: said at once, nothing sent.
    await user.click(screen.getByTestId('feedback-send'));
    expect(screen.getByTestId('feedback-message-error')).toHaveTextContent('Write your feedback');
    expect(posts(fetchMock)).toEqual([]);

    await user.click(screen.getByTestId('feedback-kind-idea'));
    await user.click(screen.getByTestId('feedback-message'));
    await user.paste('Dark charts, please');
    await user.click(screen.getByTestId('feedback-send'));
    expect(await screen.findByTestId('feedback-sent')).toHaveTextContent(
      'Thank you. Your feedback was sent.',
    );
    expect(posts(fetchMock)).toEqual([{ kind: 'idea', message: 'Dark charts, please', page: '/settings' }]);
    const item = await screen.findByTestId('feedback-sent-item');
    expect(item).toHaveTextContent('Idea');
    expect(item).toHaveTextContent('Dark charts, please');
    expect(item).toHaveTextContent('Page: /settings');
    expect(within(item).getByRole('time')).toHaveAttribute('datetime', '2030-01-01T10:00:00.000Z');
    expect(screen.getByTestId('feedback-message')).toHaveValue('');
  }, 15_000);

  it("takes the run from a result page it came from, and says when the run is not the user's", async () => {
    const user = userEvent.setup();
    const fetchMock = feedbackServer();
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
    const { router } = renderApp('/settings');
    await screen.findByTestId('nav-feedback');
    await router.navigate('/feedback', { state: { from: '/functional-test-result/fc_abc' } });
    expect(await screen.findByTestId('feedback-run-field')).toHaveValue('fc_abc');

    await user.clear(screen.getByTestId('feedback-run-field'));
    await user.paste('run_other');
    await user.click(screen.getByTestId('feedback-message'));
    await user.paste('Numbers look off');
    await user.click(screen.getByTestId('feedback-send'));
    expect(await screen.findByTestId('feedback-run-error')).toHaveTextContent(
      'No test result of yours has this id',
    );
    await waitFor(() => expect(screen.getByTestId('feedback-sent-empty')).toBeInTheDocument());
  }, 15_000);
});
