import { LoadProfileSchema, profileChangeText } from '@aqa/plan';
import type { Translate } from '@/i18n';
import type { ParsedUpdate } from '../queries/text-command';

/**
 * The applied changes of a text command in the user's language. The server's own message is English;
 * the screen words the changes itself from `parsed_updates` (field, value, scope), so a Korean user reads
 * "동시 사용자 → 50" for "set users to 50" as for "사용자 50명으로".
 */

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function where(scope: ParsedUpdate['scope'], t: Translate): string {
  if (scope === 'all') return t('plans.command.scopeAll');
  if (typeof scope === 'object' && scope !== null)
    return t('plans.command.scopeApi', { number: scope.api + 1 });
  return '';
}

/** The new profile in the plan model's own words (stages as duration:target), read alike in every language. */
function profileText(value: unknown): string {
  const parsed = LoadProfileSchema.safeParse(value);
  return parsed.success ? profileChangeText(parsed.data) : text(value);
}

export function describeChange(update: ParsedUpdate, t: Translate): string {
  const scope = where(update.scope, t);
  const value = text(update.value);
  switch (update.field) {
    case 'name':
      return t('plans.command.name', { value });
    case 'tool':
      return t('plans.command.tool', { value });
    case 'concurrent_users':
      return t('plans.command.users', { value });
    case 'duration':
      return t('plans.command.duration', { value });
    case 'thinkTime':
      return t('plans.command.thinkTime', { value, where: scope });
    case 'timeout':
      return t('plans.command.timeout', { value, where: scope });
    case 'transactionRate':
      return t('plans.command.transactionRate', { value, where: scope });
    case 'method':
      return t('plans.command.method', { value, where: scope });
    case 'addHeader': {
      const header = update.value as { name?: unknown; value?: unknown } | null;
      return t('plans.command.addHeader', {
        name: text(header?.name ?? ''),
        value: text(header?.value ?? ''),
        where: scope,
      });
    }
    case 'removeHeader':
      return t('plans.command.removeHeader', { value, where: scope });
    case 'bearerToken':
      return t('plans.command.bearerToken', { where: scope });
    case 'loadProfile':
      return t('plans.command.loadProfile', { value: profileText(update.value) });
    case 'removeApi':
      return typeof update.scope === 'object' && update.scope !== null
        ? t('plans.command.removeApi', { number: update.scope.api + 1 })
        : `${update.field} = ${value}`;
    default:
      // A change this screen does not know yet still shows what it set.
      return `${update.field} = ${value}${scope}`;
  }
}

/** "Applied 2 changes: concurrent users → 50; think time → 2s for API 2". */
export function appliedMessage(updates: readonly ParsedUpdate[], t: Translate): string {
  const count =
    updates.length === 1
      ? t('plans.command.oneChange')
      : t('plans.command.changes', { count: updates.length });
  return t('plans.command.applied', {
    count,
    changes: updates.map((update) => describeChange(update, t)).join('; '),
  });
}
