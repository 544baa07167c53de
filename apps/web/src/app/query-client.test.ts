import { contract } from '@aqa/contract';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeKey } from '@/lib/queries';
import { saveSession } from '@/lib/session';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { createQueryClient, forgetOnWorkspaceChange } from './query-client';

afterEach(() => {
  setCurrentWorkspace(null);
});

describe('forgetOnWorkspaceChange', () => {
  it("drops the other workspace's answers, asks again for those shown, and keeps the user's list of workspaces", async () => {
    saveSession({ token: 'tok', user: { username: 'ada@example.com', email: 'ada@example.com' } });
    const client = createQueryClient();
    const stop = forgetOnWorkspaceChange(client);
    const plansKey = routeKey(contract.plans.list);
    const schedulesKey = routeKey(contract.schedules.list);
    const listKey = routeKey(contract.workspaces.list);
    client.setQueryData(schedulesKey, { schedules: ['personal'] });
    client.setQueryData(listKey, { workspaces: ['mine'] });
    // The plan list is on screen: an observer is subscribed to it.
    const loads: string[] = [];
    const observer = new QueryObserver(client, {
      queryKey: plansKey,
      queryFn: () => {
        const answer = loads.length === 0 ? 'personal plans' : 'team plans';
        loads.push(answer);
        return Promise.resolve(answer);
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(client.getQueryData(plansKey)).toBe('personal plans'));

    setCurrentWorkspace('ws_team');

    // Not shown while the team's answer comes.
    expect(client.getQueryData(plansKey)).toBeUndefined();
    expect(client.getQueryData(schedulesKey)).toBeUndefined();
    expect(client.getQueryData(listKey)).toEqual({ workspaces: ['mine'] });
    await vi.waitFor(() => expect(client.getQueryData(plansKey)).toBe('team plans'));
    expect(loads).toEqual(['personal plans', 'team plans']);
    unsubscribe();
    stop();
  });
});
