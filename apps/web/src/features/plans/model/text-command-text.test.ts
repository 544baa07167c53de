import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import type { ParsedUpdate } from '../queries/text-command';
import { appliedMessage, describeChange } from './text-command-text';

const en = createTranslate('en');
const ko = createTranslate('ko');

const updates: ParsedUpdate[] = [
  { field: 'concurrent_users', value: 50, scope: 'plan' },
  { field: 'thinkTime', value: '2s', scope: { api: 1 } },
  { field: 'addHeader', value: { name: 'X-Env', value: 'staging' }, scope: 'all' },
];

describe('text-command changes in the screen language', () => {
  it('words them as the server does in English', () => {
    expect(appliedMessage(updates, en)).toBe(
      'Applied 3 changes: concurrent users → 50; think time → 2s for API 2; header X-Env: staging added for all APIs',
    );
    expect(appliedMessage(updates.slice(0, 1), en)).toBe('Applied 1 change: concurrent users → 50');
  });

  it('words them in Korean', () => {
    expect(appliedMessage(updates, ko)).toBe(
      '변경 3건 적용: 동시 사용자 → 50; 대기 시간 → 2s (API 2); 헤더 X-Env: staging 추가 (모든 API)',
    );
    expect(describeChange({ field: 'removeApi', value: true, scope: { api: 2 } }, ko)).toBe('API 3 삭제');
    expect(describeChange({ field: 'duration', value: 10, scope: 'plan' }, ko)).toBe('실행 시간 → 10분');
  });

  it('shows a field it does not know as field = value', () => {
    expect(describeChange({ field: 'rampUp', value: 30, scope: 'plan' }, en)).toBe('rampUp = 30');
  });
});
