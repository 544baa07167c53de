import { innerPhrase, type Message, type MessageList, said } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const unreadRun: Message = {
  id: 'msg_1',
  kind: 'threshold_failed',
  test_type: 'load',
  name: 'Checkout',
  title: 'Checkout load test broke a threshold',
  body: 'Broke p95<300 (was 412 ms) · 1,234 requests · error rate 0.5% · p95 412 ms',
  link: '/test-result/run_1',
  run_id: 'run_1',
  created_at: '2030-01-01T10:00:00.000Z',
  read_at: null,
};
const readRun: Message = {
  id: 'msg_2',
  kind: 'completed',
  test_type: 'api',
  name: 'Login',
  title: 'Login API test completed',
  body: '4 calls: 4 passed, 0 failed',
  link: '/functional-test-result/fc_2',
  run_id: 'fc_2',
  created_at: '2030-01-01T09:00:00.000Z',
  read_at: '2030-01-01T09:30:00.000Z',
};

/** The server, as far as the Messages screen and the sidebar's count read it: one unread message. */
function messagesServer(messages: Message[], arriving?: { list: Message[] }): FetchMock {
  let list = messages;
  const unread = () => list.filter((m) => m.read_at === null).length;
  return createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/messages': ({ url }) => {
      if (arriving !== undefined)
        list = [...arriving.list, ...list.filter((m) => !arriving.list.includes(m))];
      return json({ messages: url.includes('limit=0') ? [] : list, unread: unread() } satisfies MessageList);
    },
    'POST /api/messages/read': (init) => {
      const { ids } = bodyOf(init) as { ids?: string[] };
      list = list.map((m) =>
        ids === undefined || ids.includes(m.id)
          ? { ...m, read_at: m.read_at ?? '2030-01-01T11:00:00.000Z' }
          : m,
      );
      return json({ unread: unread() });
    },
  });
}

function start(messages: Message[], language: 'en' | 'ko' = 'en', arriving?: { list: Message[] }) {
  const fetchMock = messagesServer(messages, arriving);
  vi.stubGlobal('fetch', fetchMock);
  signInAs();
  return { fetchMock, ...renderApp('/messages', { language }) };
}

afterEach(() => vi.unstubAllGlobals());

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

describe('Messages', () => {
  it('lists messages newest first with the unread one marked, and the unread count on the sidebar', async () => {
    start([unreadRun, readRun]);
    const items = await screen.findAllByTestId('message-item');
    expect(items.map((item) => item.dataset.unread)).toEqual(['true', 'false']);
    expect(within(items[0]!).getByTestId('message-kind')).toHaveTextContent('Threshold broken');
    expect(within(items[0]!).getByTestId('message-link')).toHaveTextContent(
      'Checkout load test broke a threshold',
    );
    expect(within(items[0]!).getByTestId('message-body')).toHaveTextContent('Broke p95<300 (was 412 ms)');
    expect(within(items[1]!).getByTestId('message-link')).toHaveTextContent('Login API test completed');
    expect(within(items[1]!).getByTestId('message-link')).toHaveAttribute(
      'href',
      '/functional-test-result/fc_2',
    );
    expect(await screen.findByTestId('messages-unread-badge')).toHaveTextContent('1');
    expect(screen.getByTestId('messages-unread-badge')).toHaveAccessibleName('1 unread messages');
  });

  it('opening a message marks it read, goes to its result and clears the badge', async () => {
    const user = userEvent.setup();
    const { fetchMock, router } = start([unreadRun, readRun]);
    await screen.findByTestId('messages-unread-badge');
    const [first] = await screen.findAllByTestId('message-link');
    await user.click(first!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/test-result/run_1'));
    const reads = fetchMock.mock.calls.filter(([url]) => urlOf(url).endsWith('/api/messages/read'));
    expect(reads.map(([, init]) => bodyOf(init))).toEqual([{ ids: ['msg_1'] }]);
    await waitFor(() => expect(screen.queryByTestId('messages-unread-badge')).toBeNull());
  });

  it('marks all read', async () => {
    const user = userEvent.setup();
    const { fetchMock } = start([unreadRun, { ...unreadRun, id: 'msg_3', run_id: 'run_3' }, readRun]);
    expect(await screen.findByTestId('messages-unread-badge')).toHaveTextContent('2');
    await user.click(screen.getByTestId('messages-mark-all-read'));
    await waitFor(() =>
      expect(screen.getAllByTestId('message-item').map((item) => item.dataset.unread)).toEqual([
        'false',
        'false',
        'false',
      ]),
    );
    expect(screen.getByTestId('messages-mark-all-read')).toBeDisabled();
    const reads = fetchMock.mock.calls.filter(([url]) => urlOf(url).endsWith('/api/messages/read'));
    expect(reads.map(([, init]) => bodyOf(init))).toEqual([{}]);
    await waitFor(() => expect(screen.queryByTestId('messages-unread-badge')).toBeNull());
  });

  it('shows a message that arrives while the screen is open, when the count says so', async () => {
    const arriving = { list: [] as Message[] };
    start([readRun], 'en', arriving);
    expect(await screen.findAllByTestId('message-item')).toHaveLength(1);
    arriving.list = [unreadRun];
    // The tab becoming visible asks for the count at once (it is also asked every 15 s); the browser's
    // visibilitychange bubbles from the document to the window.
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    await waitFor(() => expect(screen.getAllByTestId('message-item')).toHaveLength(2));
    expect(await screen.findByTestId('messages-unread-badge')).toHaveTextContent('1');
  });

  it('says what creates messages when there are none, in Korean too', async () => {
    start([], 'ko');
    expect(await screen.findByTestId('messages-empty')).toHaveTextContent('아직 메시지가 없습니다');
    expect(screen.queryByTestId('messages-unread-badge')).toBeNull();
  });

  it("titles a message in the user's language", async () => {
    start([unreadRun], 'ko');
    expect(await screen.findByTestId('message-link')).toHaveTextContent('Checkout 부하 테스트 임계값 위반');
  });
  it("words a message's body in Korean from its codes, and keeps the English of a message stored before them", async () => {
    // The parts as apps/server/src/services/message-text.ts makes them.
    const parts = [
      said('message.broke', {
        thresholds: [innerPhrase('message.brokeOne', { threshold: 'p95<300', actual: '412 ms' })],
      }),
      said('message.loadFigures', { count: 1234, requests: '1,234', errorRate: '0.5', p95: '412 ms' }),
      said('run.interrupted'),
    ];
    const worded: Message = {
      ...unreadRun,
      body: parts.map((part) => part.text).join(' · '),
      body_phrases: parts.map((part) => part.phrase),
    };
    start([worded, readRun], 'ko');
    const items = await screen.findAllByTestId('message-item');
    const body = within(items[0]!).getByTestId('message-body');
    expect(body).toHaveTextContent(
      '위반: p95<300 (실제 412 ms) · 요청 1,234건 · 오류율 0.5% · p95 412 ms · 서버 재시작으로 중단됨',
    );
    for (const part of parts) expect(body).not.toHaveTextContent(part.text);
    // Stored before phrases: no codes, so its English is shown.
    expect(within(items[1]!).getByTestId('message-body')).toHaveTextContent('4 calls: 4 passed, 0 failed');
  });
});
