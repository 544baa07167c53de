import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedPlan } from '@/features/plans';
import { createFetchMock, json, renderWithRouter, signInAs, type FetchMock } from '@/test/render';
import { SavedPlans } from './SavedPlans';

function plan(id: string, sourcePage: 'url-input' | 'script-input'): SavedPlan {
  return {
    id,
    name: `Plan ${id}`,
    description: '',
    tool: 'k6',
    concurrent_users: 1,
    duration: 1,
    urls: [{ method: 'GET', url: `http://127.0.0.1:9/${id}` }],
    script: '',
    source_page: sourcePage,
    created_at: '2025-03-01T10:00:00Z',
  } as unknown as SavedPlan;
}

let fetchMock: FetchMock;
let answer: () => Response;

beforeEach(() => {
  signInAs();
  answer = () =>
    new Response(JSON.stringify([plan('p1', 'url-input'), plan('p2', 'script-input')]), {
      headers: { 'Content-Type': 'application/json', 'X-Total-Count': '9' },
    });
  fetchMock = createFetchMock({ 'GET /api/get-test-plans': () => answer() });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('Saved plans on the home dashboard', () => {
  it('lists the newest plans with tool, APIs and created date, and Edit Plan opens their own screen', async () => {
    renderWithRouter(<SavedPlans />);
    expect(screen.getByText('Loading plans...')).toBeInTheDocument();
    const items = await screen.findAllByTestId('saved-plan');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Plan p1');
    expect(items[0]).toHaveTextContent('k6');
    expect(items[0]).toHaveTextContent('APIs: 1');
    expect(items[0]).toHaveTextContent('GET http://127.0.0.1:9/p1');
    expect(items[0]).toHaveTextContent(/Created Mar 1, 2025/);
    const edits = screen.getAllByTestId('edit-plan');
    expect(edits[0]).toHaveAttribute('href', '/create-test/url-input?planId=p1');
    expect(edits[1]).toHaveAttribute('href', '/create-test/script-input?planId=p2');
    expect(screen.getByTestId('saved-plans-more')).toHaveTextContent('7 more in the performance dashboard');
    expect(screen.getByTestId('saved-plans-dashboard')).toHaveAttribute('href', '/performance-dashboard');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/get-test-plans?limit=6');
  });

  it('shows the empty state', async () => {
    answer = () => json([]);
    renderWithRouter(<SavedPlans />);
    expect(await screen.findByText('No saved plans yet')).toBeInTheDocument();
  });

  it('shows "Failed to load data" and tries again', async () => {
    let calls = 0;
    answer = () =>
      ++calls === 1 ? json({ detail: 'boom' }, 500, 'Server Error') : json([plan('p1', 'url-input')]);
    renderWithRouter(<SavedPlans />);
    expect(await screen.findByText('Failed to load data')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('try-again'));
    expect(await screen.findAllByTestId('saved-plan')).toHaveLength(1);
  });
});
