import { z } from 'zod';
import { LOAD_MODELS } from '../load-profile';

const text = z.string();

/**
 * A load profile on the wire as the server stores it, every default filled (the output of
 * LoadProfileSchema, docs/adr/0027-load-profiles.md): a saved plan's `load_profile`, and the profile a run
 * followed, which the result screens draw as the planned line against the measured one.
 */
export const PlannedProfileSchema = z
  .object({
    model: z
      .enum(LOAD_MODELS)
      .describe('users: virtual users (closed model); arrival_rate: iterations per second (open model)'),
    start: z.number().describe('The target at 0 s'),
    stages: z.array(
      z.object({
        duration: text.describe('How long the stage moves toward its target: "30s", "2m"; "0s" is a step'),
        target: z.number().describe('Users, or iterations per second, at the end of the stage'),
      }),
    ),
    graceful_stop: text.describe('How long leaving users may finish their iteration'),
    max_users: z.number().int().optional().describe('arrival_rate only: the pool of virtual users'),
  })
  .describe('How the load moves over time (docs/adr/0027-load-profiles.md)');
