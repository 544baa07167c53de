import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, type Language } from '@/i18n';
import { DetailedStatistics } from './DetailedStatistics';

const SUMMARY = {
  concurrent_users: 40,
  requests_per_second: 20,
  average_response_time: 310,
  error_rate: 0,
  total_requests: 57,
  successful_requests: 57,
  failed_requests: 0,
  percentile_95: 400,
  min_response_time: 300,
  max_response_time: 420,
  avg_bandwidth: 1.5,
  test_duration: 3,
};

function renderStats(summary: Record<string, unknown>, language: Language = 'en') {
  render(
    <I18nProvider initialLanguage={language}>
      <DetailedStatistics summary={summary as never} engine="builtin" />
    </I18nProvider>,
  );
  return screen.getByTestId('detailed-statistics');
}

describe('Detailed Statistics of a run with an open-model load profile', () => {
  it('shows the iterations started and dropped, in either language', () => {
    const stats = renderStats({ ...SUMMARY, iterations_started: 57, iterations_dropped: 1203 });
    expect(within(stats).getByTestId('stat-iterations-started')).toHaveTextContent('Iterations started57');
    expect(within(stats).getByTestId('stat-iterations-dropped')).toHaveTextContent(
      'Iterations dropped (no free user when due)1,203',
    );
  });

  it('shows a run that dropped none as 0, and Korean words', () => {
    const stats = renderStats({ ...SUMMARY, iterations_started: 60, iterations_dropped: 0 }, 'ko');
    expect(within(stats).getByTestId('stat-iterations-dropped')).toHaveTextContent('버려진 반복');
    expect(within(stats).getByTestId('stat-iterations-dropped')).toHaveTextContent(/0$/);
  });

  it('shows no iteration rows for a run that did not count them', () => {
    const stats = renderStats(SUMMARY);
    expect(within(stats).queryByTestId('stat-iterations-started')).toBeNull();
    expect(within(stats).queryByTestId('stat-iterations-dropped')).toBeNull();
  });
});

describe('Detailed Statistics of a run with flows (docs/adr/0027-load-profiles.md "Flows")', () => {
  it('shows each flow’s iterations and share', () => {
    const flows = [
      { name: 'browse', iterations: 7001 },
      { name: 'search', iterations: 2999 },
    ];
    const stats = renderStats({ ...SUMMARY, flows });
    expect(within(stats).getByTestId('stat-flow-0')).toHaveTextContent(
      'Iterations of flow browse7,001 (70.0 %)',
    );
    expect(within(stats).getByTestId('stat-flow-1')).toHaveTextContent(
      'Iterations of flow search2,999 (30.0 %)',
    );
  });

  it('shows Korean words', () => {
    const ko = renderStats({ ...SUMMARY, flows: [{ name: 'browse', iterations: 5 }] }, 'ko');
    expect(within(ko).getByTestId('stat-flow-0')).toHaveTextContent('플로 browse의 반복5 (100.0 %)');
  });

  it('shows no flow rows for a run without flows', () => {
    expect(within(renderStats(SUMMARY)).queryByTestId('stat-flow-0')).toBeNull();
  });
});
