import { PerfPlanSchema, UrlEntrySchema, type PerfPlan } from '@aqa/plan';
import { randomPerfPlan } from '@aqa/plan/testing';
import { describe, expect, it } from 'vitest';
import { snapshotForm } from './form-to-plan';
import { formFromPlan, PLAN_FIELDS_IN_FORM } from './plan-form';

/**
 * Property-style round trip of the plan form: seeded random valid plans → the form → the body Save sends →
 * the schema → the same plan. A field the form forgets comes back missing or changed, and the message
 * names the seed that shows it.
 */

const SEEDS = Array.from({ length: 80 }, (_, i) => 7 + i * 104_729);

/** The plan as the form holds it: the fields the server sets are not the form's (PLAN_FIELDS_IN_FORM). */
function formFields(plan: PerfPlan): Partial<PerfPlan> {
  const kept: Partial<Record<keyof PerfPlan, unknown>> = {};
  for (const [field, inForm] of Object.entries(PLAN_FIELDS_IN_FORM)) {
    if (inForm !== null) kept[field as keyof PerfPlan] = plan[field as keyof PerfPlan];
  }
  return kept as Partial<PerfPlan>;
}

describe('plan → form → plan', () => {
  it.each(SEEDS)('keeps every field of the plan and of each call (seed %i)', (seed) => {
    const plan = randomPerfPlan(seed);
    const { body } = snapshotForm(formFromPlan(plan));
    const saved = PerfPlanSchema.parse(body);
    expect(formFields(saved), `seed ${seed}`).toEqual(formFields(plan));
  });

  it('the seeds cover every field of the model, optional ones present and absent', () => {
    const plans = SEEDS.map(randomPerfPlan);
    const planFields = Object.keys(PerfPlanSchema.shape).filter(
      (field) => PLAN_FIELDS_IN_FORM[field as keyof PerfPlan] !== null,
    );
    for (const field of planFields) {
      const present = plans.filter((plan) => plan[field as keyof PerfPlan] !== undefined).length;
      expect(present, `plans with ${field}`).toBeGreaterThan(0);
      // A field with a default is always there once parsed; only a truly optional one can be absent.
      const absent = PerfPlanSchema.shape[field as keyof typeof PerfPlanSchema.shape].safeParse(undefined);
      if (!absent.success || absent.data !== undefined) continue;
      // It must also be absent somewhere, or "absent stays absent" is never tried.
      expect(present, `plans without ${field}`).toBeLessThan(plans.length);
    }
    const entries = plans.flatMap((plan) => plan.urls);
    for (const field of Object.keys(UrlEntrySchema.shape)) {
      expect(
        entries.some((entry) => entry[field as keyof typeof entry] !== undefined),
        `calls with ${field}`,
      ).toBe(true);
    }
    // Values that are easy to lose: validation items, every kind of authorization, a blank transaction rate.
    expect(entries.some((entry) => entry.validations.length > 0)).toBe(true);
    expect(new Set(entries.map((entry) => entry.authorization.type)).size).toBe(5);
    expect(entries.some((entry) => entry.transactionRate === '')).toBe(true);
    expect(entries.some((entry) => typeof entry.transactionRate === 'number')).toBe(true);
  });

  it('fails when the form drops a field (the check can fail)', () => {
    const plan = randomPerfPlan(SEEDS.find((seed) => randomPerfPlan(seed).thresholds !== undefined)!);
    const form = formFromPlan(plan);
    const { body } = snapshotForm({ ...form, thresholds: [] });
    expect(formFields(PerfPlanSchema.parse(body))).not.toEqual(formFields(plan));
  });
});
