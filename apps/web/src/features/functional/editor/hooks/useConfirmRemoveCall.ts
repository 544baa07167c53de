import type { Dispatch } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { useT } from '@/i18n';
import type { FunctionalApiForm, FunctionalFormAction } from '../model/functional-form';

export interface RemoveCallText {
  /** The name of a call with neither a name nor a URL. */
  unnamed: string;
  /** The question, for the call's 1-based number and its name (or URL). */
  question: (number: number, name: string) => string;
}

/**
 * Remove for an API card or a UI test card (docs/reference/02-running.md §2 "Functional URL Input
 * screen" and "UI tests"): asks first, naming the call by its number and name, and removes it on yes.
 */
export function useConfirmRemoveCall(dispatch: Dispatch<FunctionalFormAction>, text: RemoveCallText) {
  const t = useT();
  const confirm = useConfirm();
  return (api: FunctionalApiForm, index: number) => {
    const name = api.entry.name.trim() || api.entry.url.trim() || text.unnamed;
    const question = {
      message: text.question(index + 1, name),
      confirmLabel: t('functional.editor.confirmRemoveAction'),
      destructive: true,
    };
    void confirm(question).then((confirmed) => {
      if (confirmed) dispatch({ type: 'removeApi', entryId: api.entry.id });
    });
  };
}
