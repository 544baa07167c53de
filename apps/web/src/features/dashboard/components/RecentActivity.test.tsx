import { DATA_SOURCES } from '@/app/data-sources';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import type { RecentResult, RecentResultsSource } from '../queries/recent-results';
import { RecentActivity } from './RecentActivity';

const fetchMock = vi.fn();

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Recent Activity', () => {
  it('without a results source shows the empty state and fetches nothing', () => {
    const registered = DATA_SOURCES.recentResults;
    delete DATA_SOURCES.recentResults;
    try {
      renderWithRouter(<RecentActivity />);
      expect(screen.getByText('No recent activity')).toBeInTheDocument();
      expect(screen.getByText('Start testing to see your results here.')).toBeInTheDocument();
      expect(screen.queryByText('Loading dashboard...')).not.toBeInTheDocument();
      expect(screen.getByTestId('view-all-results')).toHaveAttribute('href', '/previous-results');
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      DATA_SOURCES.recentResults = registered;
    }
  });

  it('with a source shows "Loading dashboard..." and then the five newest results', async () => {
    const pending = deferred<RecentResult[]>();
    const source: RecentResultsSource = () => pending.promise;
    renderWithRouter(<RecentActivity source={source} />);
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();

    pending.resolve(
      Array.from({ length: 7 }, (_, i) => ({
        testId: `t${i}`,
        name: i === 6 ? '' : `Run ${i}`,
        createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        status: i % 2 ? 'failed' : 'completed',
      })),
    );
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('Unnamed Test');
    expect(items[1]).toHaveTextContent('Run 5');
    expect(items[1]).toHaveTextContent('Failed');
    expect(items[2]).toHaveTextContent('Completed');
    expect(screen.queryByText('Run 0')).not.toBeInTheDocument();
  });

  it('shows "Failed to load data" and retries', async () => {
    const source = vi
      .fn<RecentResultsSource>()
      .mockRejectedValueOnce(new Error('boom'))
      .mockResolvedValueOnce([]);
    renderWithRouter(<RecentActivity source={source} />);
    expect(await screen.findByText('Failed to load data')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
    expect(source).toHaveBeenCalledTimes(2);
  });
});
