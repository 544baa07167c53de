import { z } from 'zod';

/**
 * What the server adds to every saved plan, performance or functional, after the plan's own fields: its
 * owner, its version (docs/reference/01-authoring.md §7 "Plan versions") and its times. Spread at the end
 * of SavedPlanSchema and SavedFunctionalPlanSchema, so both answers keep their field order.
 */
export const SavedRecordFields = {
  user_email: z.string(),
  version: z
    .number()
    .int()
    .describe('One more with every update; send it back with the update to be told of a change made since'),
  created_at: z.string(),
  updated_at: z.string(),
};
