import { cleanup, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, type Language } from '@/i18n';
import { StatusBadge } from './status-badge';

function renderBadge(status: string, language: Language = 'en') {
  const { container } = render(
    <I18nProvider initialLanguage={language}>
      <StatusBadge status={status} />
    </I18nProvider>,
  );
  const badge = container.querySelector<HTMLElement>('[data-slot="badge"]');
  if (!badge) throw new Error('no badge rendered');
  return badge;
}

describe('StatusBadge', () => {
  it.each([
    ['completed', 'Completed', 'success'],
    ['running', 'Running', 'info'],
    ['failed', 'Failed', 'destructive'],
    ['stopped', 'Stopped', 'warning'],
  ])('colours %s as docs/reference/02-running.md §4 says', (status, label, tone) => {
    const badge = renderBadge(status);
    expect(badge).toHaveTextContent(label);
    expect(badge.className).toContain(`bg-${tone}-soft`);
  });

  it.each([
    ['processing', 'Processing', '처리 중'],
    ['starting', 'Starting', '시작 중'],
    ['timeout', 'Timed out', '시간 초과'],
  ])('labels %s in each language and shows it grey', (status, english, korean) => {
    const badge = renderBadge(status);
    expect(badge).toHaveTextContent(english);
    expect(badge).toHaveAttribute('data-status', status);
    expect(badge.className).toContain('bg-muted');
    cleanup();
    expect(renderBadge(status, 'ko')).toHaveTextContent(korean);
  });

  it('labels a run a server restart interrupted in each language, amber as a stopped one', () => {
    const badge = renderBadge('interrupted');
    expect(badge).toHaveTextContent('Interrupted');
    expect(badge.className).toContain('bg-warning-soft');
    cleanup();
    expect(renderBadge('interrupted', 'ko')).toHaveTextContent('중단됨');
  });

  it('shows a status it does not know as it came, grey', () => {
    const badge = renderBadge('paused');
    expect(badge).toHaveTextContent('paused');
    expect(badge.className).toContain('bg-muted');
  });
});
