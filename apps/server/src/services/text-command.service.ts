import {
  applyTextCommand,
  type ParsedUpdate,
  type PerfPlan,
  PerfPlanSchema,
  parseTextCommand,
  textCommandErrorMessage,
  textCommandMessage,
} from '@aqa/plan';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { ValidationError } from '../errors';
import { PlanRepository } from '../repositories/plan.repository';
import type { AccountUser } from './account-user';
import { PlanService } from './plan.service';
import type { SavedPlan } from './saved-plan';

/** The answer of POST /api/update-test-plan-command (docs/reference/01-authoring.md §3 "Text-command response"). */
export interface TextCommandOutcome {
  message: string;
  parsed_updates: ParsedUpdate[];
  updated_plan: SavedPlan;
}

/**
 * Edits a saved plan by a text command (docs/reference/01-authoring.md §7): the command is read against the stored plan and
 * every change applied and saved together, or nothing is. The read and the write run in one
 * transaction through the plan service, so the plan service's rules hold (another user's plan is not
 * found; the stored script is regenerated unless it was edited by hand, which is then kept).
 */
export class TextCommandService {
  constructor(
    private readonly db: Db,
    private readonly now: Clock,
  ) {}

  async apply(user: AccountUser, planId: string, command: string): Promise<TextCommandOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const plans = new PlanService(new PlanRepository(trx), this.now);
      const saved = await plans.get(user, planId);
      const plan = perfPlanOf(saved);
      const { updates, errors } = parseTextCommand(command, plan);
      if (errors.length > 0) {
        throw new ValidationError([{ field: 'command', message: textCommandErrorMessage(errors) }], {
          code: 'COMMAND_NOT_UNDERSTOOD',
        });
      }
      const checked = PerfPlanSchema.safeParse(applyTextCommand(plan, updates));
      if (!checked.success) {
        throw new ValidationError(
          checked.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
          { code: 'COMMAND_MAKES_INVALID_PLAN', namesFields: true },
        );
      }
      const updated = await plans.update(user, planId, checked.data);
      return { message: textCommandMessage(updates), parsed_updates: updates, updated_plan: updated };
    });
  }
}

/** The stored plan as the model reads it; the script is sent back only when it was edited by hand. */
function perfPlanOf(saved: SavedPlan): PerfPlan {
  const { _id: _alias, script_edited: edited, script, ...plan } = saved;
  return edited ? { ...plan, script } : plan;
}
