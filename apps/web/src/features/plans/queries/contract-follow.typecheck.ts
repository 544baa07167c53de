import { contract, defineRoute } from '@aqa/contract';
import { RunStartedSchema } from '@aqa/plan';
import { z } from 'zod';
import { call } from '@/lib/api';
import { testIdOf } from './plans-api';

/*
 * Compiled by `npm run typecheck`, never run (docs/contract.md §4): proof that the web follows the
 * contract's answers. The web reads an answer through the type call() gives it; here the run-test route
 * has its answer's test_id renamed, and the web's own reader (testIdOf) no longer compiles against it.
 * Should this file compile without the @ts-expect-error lines, a schema change could pass the web by.
 */

const renamedStart = defineRoute({
  ...contract.runs.start,
  schema: {
    ...contract.runs.start.schema,
    response: { 201: RunStartedSchema.omit({ test_id: true }).extend({ testId: z.string() }) },
  },
});

export function followsTheContract(): void {
  const body = { plan_id: 'p1' };
  // Today's route: the answer is what testIdOf reads.
  void call(contract.runs.start, { body }).then(testIdOf);
  // @ts-expect-error test_id renamed in the answer's schema: the web's reader does not follow.
  void call(renamedStart, { body }).then(testIdOf);
}
