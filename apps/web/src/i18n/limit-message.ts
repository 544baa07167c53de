import { LIMIT_MESSAGE } from '@aqa/plan';
import type { MessageKey } from './en';
import type { Translate } from './index';

/** The fields whose text has a length limit in the model (packages/plan textLimitMessage), by their label. */
const LIMITED_FIELDS: Record<string, MessageKey> = {
  Body: 'limit.field.body',
  Script: 'limit.field.script',
  'Script content': 'limit.field.scriptContent',
  'The curl command': 'limit.field.curl',
};

/**
 * "Body must be at most 1,000,000 characters" in the screen's language, naming the field and the limit;
 * undefined for any other message.
 */
export function translateLimitMessage(message: string, t: Translate): string | undefined {
  const match = LIMIT_MESSAGE.exec(message.trim());
  if (!match) return undefined;
  const [, label = '', max = ''] = match;
  const field = LIMITED_FIELDS[label];
  return t('limit.tooLong', { field: field ? t(field) : label, max });
}
