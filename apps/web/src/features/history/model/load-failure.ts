import type { Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { translateServerMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';

/**
 * The detail under a list's load-failure box (docs/reference/02-running.md §8): what the server said when
 * it answered with its own message, else the screen's own sentence — "Failed to load test results" on
 * Previous Results, "Failed to load plan" on the performance dashboard.
 */
export function loadFailureDetail(error: unknown, fallback: MessageKey, t: Translate): string {
  if (error instanceof ApiError && error.kind === 'http' && !error.message.startsWith('HTTP ')) {
    return translateServerMessage(error.message, t);
  }
  return t(fallback);
}
