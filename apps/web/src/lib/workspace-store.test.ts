import { contract } from '@aqa/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { headersOf, json } from '@/test/render';
import { api, ApiError, call } from './api';
import { clearSession, saveSession } from './session';
import { readEventStream } from './sse';
import {
  currentWorkspaceId,
  setCurrentWorkspace,
  subscribeWorkspace,
  withWorkspaceQuery,
} from './workspace-store';

const ADA = { username: 'ada@example.com', email: 'ada@example.com' };
const BOB = { username: 'bob@example.com', email: 'bob@example.com' };

function stubFetch(answer: () => Response) {
  const mock = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(answer()));
  vi.stubGlobal('fetch', mock);
  return mock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the current workspace on the wire', () => {
  it('sends no workspace header in the personal workspace, and X-Workspace-Id once a team one is chosen', async () => {
    saveSession({ token: 'tok', user: ADA });
    const fetchMock = stubFetch(() => json([]));
    await call(contract.plans.list, {});
    expect(headersOf(fetchMock.mock.calls[0]![1])['x-workspace-id']).toBeUndefined();

    setCurrentWorkspace('ws_team');
    await call(contract.plans.list, {});
    await api.post('/things', {});
    expect(headersOf(fetchMock.mock.calls[1]![1])['x-workspace-id']).toBe('ws_team');
    expect(headersOf(fetchMock.mock.calls[2]![1])['x-workspace-id']).toBe('ws_team');
  });

  it('leaves public calls (sign-in, health) without it', async () => {
    saveSession({ token: 'tok', user: ADA });
    setCurrentWorkspace('ws_team');
    const fetchMock = stubFetch(() => json({ status: 'ok' }));
    await api.get('/health', { auth: false });
    expect(headersOf(fetchMock.mock.calls[0]![1])['x-workspace-id']).toBeUndefined();
  });

  it('opens the live stream in the current workspace', async () => {
    saveSession({ token: 'tok', user: ADA });
    setCurrentWorkspace('ws_team');
    const fetchMock = stubFetch(
      () => new Response('data: {"n":1}\n\n', { headers: { 'Content-Type': 'text/event-stream' } }),
    );
    const events: string[] = [];
    await readEventStream('/test-status/run-1/stream', { onEvent: (event) => events.push(event.data) });
    expect(events).toEqual(['{"n":1}']);
    expect(headersOf(fetchMock.mock.calls[0]![1])['x-workspace-id']).toBe('ws_team');
  });

  it('puts it in the workspace_id parameter of a URL the browser opens itself', () => {
    saveSession({ token: 'tok', user: ADA });
    expect(withWorkspaceQuery('/api/report/run-1?format=html')).toBe('/api/report/run-1?format=html');
    setCurrentWorkspace('ws a&b');
    expect(withWorkspaceQuery('/api/report/run-1?format=html')).toBe(
      '/api/report/run-1?format=html&workspace_id=ws%20a%26b',
    );
    expect(withWorkspaceQuery('/api/shot/1#top')).toBe('/api/shot/1?workspace_id=ws%20a%26b#top');
  });
});

describe('the stored choice', () => {
  it('is kept per user: another account on this browser starts in its own personal workspace', () => {
    saveSession({ token: 'tok-a', user: ADA });
    setCurrentWorkspace('ws_team');
    saveSession({ token: 'tok-b', user: BOB });
    expect(currentWorkspaceId()).toBeNull();
    clearSession();
    saveSession({ token: 'tok-a2', user: ADA });
    expect(currentWorkspaceId()).toBe('ws_team');
  });

  it('survives a reload (a fresh copy of the module reads it from storage)', async () => {
    saveSession({ token: 'tok', user: ADA });
    setCurrentWorkspace('ws_team');
    vi.resetModules();
    const fresh = await import('./workspace-store');
    expect(fresh.currentWorkspaceId()).toBe('ws_team');
    fresh.setCurrentWorkspace(null);
    vi.resetModules();
    expect((await import('./workspace-store')).currentWorkspaceId()).toBeNull();
  });

  it('tells subscribers of a switch, once', () => {
    saveSession({ token: 'tok', user: ADA });
    const listener = vi.fn();
    const unsubscribe = subscribeWorkspace(listener);
    setCurrentWorkspace('ws_team');
    setCurrentWorkspace('ws_team');
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('falls back to the personal workspace when the server says the named one is gone', async () => {
    saveSession({ token: 'tok', user: ADA });
    setCurrentWorkspace('ws_gone');
    const fetchMock = stubFetch(() =>
      json({ detail: 'No such workspace, or you are not a member of it', code: 'WORKSPACE_NOT_FOUND' }, 404),
    );
    const error = await call(contract.plans.list, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('WORKSPACE_NOT_FOUND');
    expect(currentWorkspaceId()).toBeNull();
    fetchMock.mockImplementation(() => Promise.resolve(json([])));
    await call(contract.plans.list, {});
    expect(headersOf(fetchMock.mock.calls[1]![1])['x-workspace-id']).toBeUndefined();
  });

  it('keeps the workspace on any other 404 (a plan that is not there)', async () => {
    saveSession({ token: 'tok', user: ADA });
    setCurrentWorkspace('ws_team');
    stubFetch(() => json({ detail: 'Plan not found', code: 'NOT_FOUND' }, 404));
    await call(contract.plans.get, { params: { id: 'p1' } }).catch(() => undefined);
    expect(currentWorkspaceId()).toBe('ws_team');
  });
});
