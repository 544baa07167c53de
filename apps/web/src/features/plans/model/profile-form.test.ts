import { BREAKPOINT_ABORT_THRESHOLDS, LoadProfileSchema, PROFILE_ERRORS, type LoadProfile } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import { translateProfileMessage } from '../plan-messages';
import {
  checkProfile,
  flatProfileForm,
  profileBodyOf,
  profileChartPoints,
  profileFormOf,
  profileTotals,
  withBreakpointThresholds,
  withNewStage,
} from './profile-form';

const OPEN: LoadProfile = {
  model: 'arrival_rate',
  start: 0.5,
  stages: [
    { duration: '30s', target: 12.25 },
    { duration: '0s', target: 40 },
    { duration: '1m', target: 40 },
  ],
  graceful_stop: '5s',
  max_users: 60,
};

describe('the load profile form', () => {
  it('sends a loaded profile back as it was', () => {
    expect(LoadProfileSchema.parse(profileBodyOf(profileFormOf(OPEN)))).toEqual(OPEN);
  });

  it('starts as the flat load of the plan it is turned on for', () => {
    const check = checkProfile(flatProfileForm(25, 3));
    expect(check.ok && check.profile).toMatchObject({ start: 25, stages: [{ duration: '3m', target: 25 }] });
    expect(check.ok && profileTotals(check.profile)).toEqual({ users: 25, minutes: 3 });
  });

  it('keys each problem by the stage it belongs to, not its place', () => {
    const form = withNewStage(profileFormOf(OPEN));
    const [, second, , fourth] = form.stages;
    form.stages[1] = { ...second!, duration: 'soon' };
    form.stages[3] = { ...fourth!, target: 'many' };
    const check = checkProfile({ ...form, maxUsers: 'lots', start: '-1' });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.errors).toEqual({
      [`stages.${second!.id}.duration`]:
        'Stage duration "soon" is not understood: write e.g. 500ms, 30s, 2m or 1h',
      [`stages.${fourth!.id}.target`]: 'A stage target must be a number',
      start: 'A stage target cannot be negative',
      max_users: PROFILE_ERRORS.maxUsers,
    });
  });

  it('draws seconds against targets, a 0 s stage as a step', () => {
    expect(profileChartPoints(OPEN)).toEqual([
      { x: 0, y: 0.5 },
      { x: 30, y: 12.25 },
      { x: 30, y: 40 },
      { x: 90, y: 40 },
    ]);
  });

  it('adds the Breakpoint thresholds once, after the plan’s own', () => {
    expect(withBreakpointThresholds(['p99<900', 'p95<2000'])).toEqual([
      'p99<900',
      'p95<2000',
      ...BREAKPOINT_ABORT_THRESHOLDS.filter((threshold) => threshold !== 'p95<2000'),
    ]);
  });

  it('says the profile’s problems in Korean, with the value the user typed', () => {
    const ko = createTranslate('ko');
    expect(
      translateProfileMessage('Stage duration "soon" is not understood: write e.g. 500ms, 30s, 2m or 1h', ko),
    ).toBe('단계 시간 "soon"을(를) 읽을 수 없습니다. 예: 500ms, 30s, 2m, 1h');
    expect(translateProfileMessage(PROFILE_ERRORS.wholeUsers, ko)).toBe(
      '사용자 수 모델에서 단계 목표는 정수인 사용자 수입니다',
    );
    expect(translateProfileMessage('Graceful stop "2h" is longer than 1h', createTranslate('en'))).toBe(
      'Graceful stop "2h" is longer than 1h',
    );
    expect(translateProfileMessage('Enter the URL', ko)).toBeUndefined();
  });
});
