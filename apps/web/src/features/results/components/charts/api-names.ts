import type { Translate } from '@/i18n';
import type { ApiRow as ApiResult } from '../../model/views';

/** The name an API row is shown by: its name, else its label, else its URL, else "API {n}". */
export function apiDisplayName(api: ApiResult, index: number, t: Translate): string {
  for (const value of [api.name, api.label, api.url]) {
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return t('results.apiList.unnamed', { number: index + 1 });
}
