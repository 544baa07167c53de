import { FINAL_STATUSES } from '@aqa/plan';

const FINAL: readonly string[] = FINAL_STATUSES;

/** A run that has ended: it can be deleted and its report downloaded (the server refuses live ones). */
export function isFinished(status: string | null | undefined): boolean {
  return typeof status === 'string' && FINAL.includes(status);
}
