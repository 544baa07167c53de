import { PLAN_CHANGED_CODE } from '@aqa/plan';
import { useCallback } from 'react';
import { useChoose } from '@/components/confirm-dialog';
import { useT } from '@/i18n';
import { ApiError } from '@/lib/api';

/** The server refused an update made from an older version of the plan (409 PLAN_CHANGED). */
export function isPlanChanged(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === PLAN_CHANGED_CODE;
}

/**
 * A save the user chose not to finish after a conflict (Reload theirs, Keep editing): not a failure, so
 * no "Failed to save" follows it.
 */
export class SaveAbandoned extends Error {
  override readonly name = 'SaveAbandoned';
}

export type ConflictChoice = 'reload' | 'overwrite' | 'keep';

/**
 * The choice an editor offers when its update was refused because the plan changed since it was opened
 * (docs/reference/01-authoring.md §7 "Plan versions"): reload theirs, overwrite with mine, or keep editing
 * (what Escape answers, and where the focus starts, as it saves and drops nothing).
 */
export function usePlanConflictChoice(): () => Promise<ConflictChoice> {
  const t = useT();
  const choose = useChoose();
  return useCallback(
    () =>
      choose<ConflictChoice>({
        title: t('conflict.title'),
        description: t('conflict.text'),
        choices: [
          { value: 'keep', label: t('conflict.keep'), variant: 'outline', 'data-testid': 'conflict-keep' },
          {
            value: 'reload',
            label: t('conflict.reload'),
            variant: 'outline',
            'data-testid': 'conflict-reload',
          },
          {
            value: 'overwrite',
            label: t('conflict.overwrite'),
            variant: 'destructive',
            'data-testid': 'conflict-overwrite',
          },
        ],
        dismissValue: 'keep',
        'data-testid': 'conflict-dialog',
      }),
    [choose, t],
  );
}

/**
 * Runs `update` with the version the editor holds; when the plan changed since, asks what to do:
 * overwrite sends it again with the version just read (and asks again should it have moved on once
 * more), reload hands the saved plan to `reload`, keep editing does nothing. Both of the latter end in
 * SaveAbandoned.
 */
export async function updateOrResolve<Answer, Saved extends { version?: number | undefined }>(options: {
  version: number | undefined;
  update: (version: number | undefined) => Promise<Answer>;
  choose: () => Promise<ConflictChoice>;
  fetchLatest: () => Promise<Saved>;
  reload: (latest: Saved) => void;
}): Promise<Answer> {
  let version = options.version;
  for (;;) {
    try {
      return await options.update(version);
    } catch (error) {
      if (!isPlanChanged(error)) throw error;
      const choice = await options.choose();
      if (choice === 'keep') throw new SaveAbandoned();
      const latest = await options.fetchLatest();
      if (choice === 'reload') {
        options.reload(latest);
        throw new SaveAbandoned();
      }
      version = latest.version;
    }
  }
}
