import type { BreakingPoint, RunAbort } from '@aqa/plan';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { AbortBanner } from './AbortBanner';

const reason: RunAbort = {
  threshold: 'p95<500',
  metric: 'p95',
  actual: 812.4,
  at_ms: 134_000,
  text: 'p95 812 ms broke p95<500 at 2m14s',
};
const point: BreakingPoint = {
  model: 'arrival_rate',
  value: 42,
  at_ms: 123_000,
  text: 'the highest rate that held: 42 iterations/s at 2m3s',
};

describe('AbortBanner (docs/adr/0027-load-profiles.md, "Abort criteria")', () => {
  it('says which abort threshold stopped the run and the highest rate that held', () => {
    renderWithRouter(<AbortBanner result={{ abort_reason: reason, breaking_point: point }} />);
    expect(screen.getByTestId('abort-banner')).toHaveTextContent('Stopped by an abort threshold');
    expect(screen.getByTestId('abort-reason')).toHaveTextContent('p95 812 ms broke p95<500 at 2m14s');
    expect(screen.getByTestId('breaking-point')).toHaveTextContent(
      'Breaking point: the highest rate that held: 42 iterations/s at 2m3s',
    );
  });

  it('says it in Korean, from the structured reason', () => {
    renderWithRouter(<AbortBanner result={{ abort_reason: reason, breaking_point: point }} />, {
      language: 'ko',
    });
    expect(screen.getByTestId('abort-banner')).toHaveTextContent('중단 임계값으로 멈춤');
    expect(screen.getByTestId('abort-reason')).toHaveTextContent('2m14s에 p95 812 ms(으)로 p95<500 위반');
    expect(screen.getByTestId('breaking-point')).toHaveTextContent(
      '한계점: 버틴 가장 높은 도착률: 2m3s에 초당 42회 반복',
    );
  });

  it('names no breaking point without a load profile, and shows nothing for a run no threshold stopped', () => {
    const { unmount } = renderWithRouter(
      <AbortBanner result={{ abort_reason: reason, breaking_point: null }} />,
    );
    expect(screen.getByTestId('abort-reason')).toBeInTheDocument();
    expect(screen.queryByTestId('breaking-point')).toBeNull();
    unmount();
    renderWithRouter(<AbortBanner result={{ abort_reason: null }} />);
    expect(screen.queryByTestId('abort-banner')).toBeNull();
  });
});
