import { describe, expect, it } from 'vitest';
import { clearPlanHandOff, peekPlanHandOff, planIdOf } from './hand-off';

describe('the storage hand-off of docs/reference/01-authoring.md §4', () => {
  it('reads a saved plan id before a saved plan, without removing either', () => {
    localStorage.setItem('savedPlan', JSON.stringify({ name: 'P' }));
    localStorage.setItem('loadSavedPlanId', 'p-1');
    expect(peekPlanHandOff()).toEqual({ kind: 'id', id: 'p-1' });
    expect(peekPlanHandOff()).toEqual({ kind: 'id', id: 'p-1' });
    localStorage.removeItem('loadSavedPlanId');
    expect(peekPlanHandOff()).toEqual({ kind: 'plan', plan: { name: 'P' } });
  });

  it('ignores a stored plan that is not JSON, and clears both entries', () => {
    localStorage.setItem('savedPlan', '{not json');
    expect(peekPlanHandOff()).toEqual({ kind: 'none' });
    localStorage.setItem('loadSavedPlanId', 'x');
    clearPlanHandOff();
    expect(localStorage.getItem('savedPlan')).toBeNull();
    expect(localStorage.getItem('loadSavedPlanId')).toBeNull();
  });

  it('finds the id under id, _id or plan_id', () => {
    expect(planIdOf({ _id: 'a' })).toBe('a');
    expect(planIdOf({ plan_id: 7 })).toBe('7');
    expect(planIdOf({ name: 'none' })).toBeUndefined();
  });
});
