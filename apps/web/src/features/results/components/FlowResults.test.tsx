import { flowRows, liveFlowRows } from '@aqa/plan';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, type Language } from '@/i18n';
import { FlowResultsTable } from './FlowResults';

function renderTable(rows: ReturnType<typeof flowRows>, language: Language = 'en') {
  render(
    <I18nProvider initialLanguage={language}>
      <FlowResultsTable rows={rows} title="Per flow" description="merged" data-testid="flow-results" />
    </I18nProvider>,
  );
}

function cells(flow: string): Record<string, string> {
  const row = screen.getAllByTestId('flow-row').find((r) => r.getAttribute('data-flow') === flow)!;
  return Object.fromEntries(
    within(row)
      .getAllByRole('cell')
      .map((cell): [string, string] => [cell.getAttribute('data-cell') ?? '', cell.textContent ?? '']),
  );
}

describe('the per-flow table (docs/adr/0027-load-profiles.md "Flows")', () => {
  it("shows a stored run's flows: iterations, share, requests, failures and latency", () => {
    renderTable(
      flowRows([
        {
          name: 'browse',
          iterations: 7001,
          total_requests: 14_002,
          failed_requests: 140,
          error_rate: 1,
          average_response_time: 12.5,
          percentile_95: 40,
          percentile_99: 81.25,
        },
        {
          name: 'buy',
          iterations: 2999,
          total_requests: 2999,
          failed_requests: 0,
          error_rate: 0,
          average_response_time: 30,
          percentile_95: 90,
          percentile_99: 120,
        },
      ]),
    );
    expect(screen.getByTestId('flow-results')).toHaveTextContent('Per flow');
    expect(cells('browse')).toMatchObject({
      iterations: '7,001',
      share: '70.0 %',
      requests: '14,002',
      failed: '140',
      errorRate: '1%',
      avg: '12.5 ms',
      p95: '40 ms',
      p99: '81.3 ms',
    });
    expect(cells('buy')).toMatchObject({ share: '30.0 %', requests: '2,999', p99: '120 ms' });
  });

  it("shows dashes, not zeros, for a tool's run that counted each flow's iterations only", () => {
    renderTable(flowRows([{ name: 'browse', iterations: 10 }]));
    expect(cells('browse')).toMatchObject({ iterations: '10', share: '100.0 %', requests: '—', p95: '—' });
  });

  it('shows a live run: totals so far, latency of the last second, none for a flow idle in it', () => {
    renderTable(
      liveFlowRows({
        second: [
          { name: 'browse', requests: 20, latency: { avg: 10, p95: 15, p99: 19 } },
          { name: 'buy', requests: 0, latency: { avg: 0, p95: 0, p99: 0 } },
        ],
        totals: [
          { name: 'browse', iterations: 30, requests: 60, failures: 3 },
          { name: 'buy', iterations: 10, requests: 10, failures: 0 },
        ],
      }),
    );
    expect(cells('browse')).toMatchObject({
      iterations: '30',
      share: '75.0 %',
      requests: '60',
      errorRate: '5%',
    });
    expect(cells('browse')).toMatchObject({ p95: '15 ms', p99: '19 ms' });
    expect(cells('buy')).toMatchObject({ requests: '10', failed: '0', p95: '—' });
  });

  it('shows nothing for a plan without flows, and speaks Korean', () => {
    renderTable([]);
    expect(screen.queryByTestId('flow-results')).toBeNull();
    renderTable(flowRows([{ name: 'browse', iterations: 1, total_requests: 1 }]), 'ko');
    expect(screen.getByTestId('flow-results')).toHaveTextContent('플로');
    expect(screen.getByTestId('flow-results')).toHaveTextContent('반복');
    expect(screen.getByTestId('flow-results')).toHaveTextContent('오류율');
  });
});
