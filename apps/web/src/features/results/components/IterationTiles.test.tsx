import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, type Language } from '@/i18n';
import { IterationTiles, type IterationCounts } from './IterationTiles';

function renderTiles(counts: IterationCounts | null, language: Language = 'en') {
  render(
    <I18nProvider initialLanguage={language}>
      <IterationTiles counts={counts} hint="Over the whole run" />
    </I18nProvider>,
  );
}

describe('the iteration tiles (docs/adr/0027-load-profiles.md "8. Live and stored results")', () => {
  it('show an arrival-rate run’s started and dropped iterations, a dropped 0 as 0', () => {
    renderTiles({ iterations_started: 1200, iterations_dropped: 0 });
    expect(screen.getByTestId('tile-iterations-value')).toHaveTextContent('1,200');
    expect(screen.getByTestId('tile-dropped-iterations-value')).toHaveTextContent(/^0$/);
    expect(screen.getByTestId('tile-dropped-iterations')).toHaveTextContent('0% of the iterations due');
  });

  it('show dropped iterations with their percent of the iterations due', () => {
    renderTiles({ iterations_started: 75, iterations_dropped: 25 });
    expect(screen.getByTestId('tile-dropped-iterations-value')).toHaveTextContent('25');
    expect(screen.getByTestId('tile-dropped-iterations')).toHaveTextContent('25% of the iterations due');
  });

  it('show one tile per flow with its iterations and share, and no dropped tile in the users model', () => {
    renderTiles({
      flows: [
        { name: 'browse', iterations: 7001 },
        { name: 'search', iterations: 2999 },
      ],
    });
    expect(screen.getByTestId('tile-iterations-value')).toHaveTextContent('10,000');
    expect(screen.queryByTestId('tile-dropped-iterations')).toBeNull();
    expect(screen.getByTestId('tile-flow-0')).toHaveTextContent('Flow browse');
    expect(screen.getByTestId('tile-flow-0-value')).toHaveTextContent('7,001');
    expect(screen.getByTestId('tile-flow-0')).toHaveTextContent('70.0 % of the iterations');
    expect(screen.getByTestId('tile-flow-1')).toHaveTextContent('30.0 % of the iterations');
  });

  it('show the schedule lag’s p99 beside the dropped iterations, with its p95 and what it covers', () => {
    render(
      <I18nProvider initialLanguage="en">
        <IterationTiles
          counts={{ iterations_started: 90, iterations_dropped: 10, schedule_lag: { p95: 1.25, p99: 4.5 } }}
          hint="So far"
          lagHint="Last second"
        />
      </I18nProvider>,
    );
    expect(screen.getByTestId('tile-schedule-lag')).toHaveTextContent('Schedule lag (p99)');
    expect(screen.getByTestId('tile-schedule-lag-value')).toHaveTextContent('4.5 ms');
    expect(screen.getByTestId('tile-schedule-lag')).toHaveTextContent('p95 1.25 ms · Last second');
  });

  it('show no schedule lag where the run measured none (closed model, a tool’s run)', () => {
    renderTiles({
      flows: [{ name: 'browse', iterations: 3 }],
      schedule_lag: { p95: 1, p99: 2 },
    });
    expect(screen.queryByTestId('tile-schedule-lag')).toBeNull();
    renderTiles({ iterations_started: 3, iterations_dropped: 0 });
    expect(screen.queryByTestId('tile-schedule-lag')).toBeNull();
  });

  it('make up nothing for a run that counted no iteration', () => {
    renderTiles({});
    expect(screen.queryByTestId('iteration-tiles')).toBeNull();
  });

  it('speak Korean', () => {
    renderTiles(
      { iterations_started: 3, iterations_dropped: 1, flows: [{ name: 'browse', iterations: 3 }] },
      'ko',
    );
    expect(screen.getByTestId('tile-iterations')).toHaveTextContent('시작된 반복');
    expect(screen.getByTestId('tile-dropped-iterations')).toHaveTextContent('버려진 반복');
    expect(screen.getByTestId('tile-flow-0')).toHaveTextContent('플로 browse');
    cleanup();
    renderTiles({ iterations_started: 3, iterations_dropped: 1, schedule_lag: { p95: 1, p99: 2 } }, 'ko');
    expect(screen.getByTestId('tile-schedule-lag')).toHaveTextContent('시작 지연 (p99)');
  });
});
