import { ArrowRightLeft, Plus, Trash2 } from 'lucide-react';
import { useState, type Dispatch, type FocusEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Tooltip } from '@/components/ui/tooltip';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import {
  authorizationMove,
  isReplacedAuthorizationHeader,
  type MovedAuthorization,
} from '../model/authorization-header';
import {
  canRemoveRow,
  emptyRow,
  type EntryForm,
  type KeyValueRow,
  type EntryFormAction,
  type RowList,
} from '../model/entry-form';
import { translateCallMessage } from '../call-messages';

const TEXTS: Record<RowList, { name: MessageKey; add: MessageKey; remove: MessageKey; hint: MessageKey }> = {
  parameters: {
    name: 'plans.rowName',
    add: 'plans.addParameter',
    remove: 'plans.removeParameter',
    hint: 'plans.parametersHint',
  },
  headers: {
    name: 'plans.headerName',
    add: 'plans.addHeader',
    remove: 'plans.removeHeader',
    hint: 'plans.headersHint',
  },
};

/**
 * The Parameters and Headers tabs: name/value rows, one of which always stays (docs/reference/01-authoring.md §5). On the Headers
 * tab, an Authorization row with a Bearer or Basic value moves to the Authorization tab once the user leaves
 * the row (not while typing, which would take the row away mid-token), and a note says so here.
 */
export function KeyValueRows({
  entry,
  list,
  dispatch,
  errors,
  testId,
}: {
  entry: EntryForm;
  list: RowList;
  dispatch: Dispatch<EntryFormAction>;
  errors: Record<string, string>;
  testId: string;
}) {
  const t = useT();
  const [moved, setMoved] = useState<MovedAuthorization['type'] | null>(null);
  const rows = entry[list];
  const texts = TEXTS[list];
  const removable = canRemoveRow(rows);

  const setRow = (row: KeyValueRow, field: 'name' | 'value', value: string) =>
    dispatch({ type: 'setRow', entryId: entry.id, list, rowId: row.id, field, value });

  const leaveRow = (row: KeyValueRow, event: FocusEvent<HTMLLIElement>) => {
    if (list !== 'headers' || event.currentTarget.contains(event.relatedTarget)) return;
    const move = authorizationMove(row, entry.authorization);
    if (!move) return;
    dispatch({ type: 'setAuth', entryId: entry.id, patch: move.patch });
    if (removable) dispatch({ type: 'removeRow', entryId: entry.id, list, rowId: row.id });
    else {
      for (const field of ['name', 'value'] as const) setRow(row, field, '');
    }
    setMoved(move.moved.type);
  };

  return (
    <div className="space-y-3" data-testid={`${testId}-${list}`}>
      <p className="text-[13px] leading-5 text-muted-foreground">{t(texts.hint)}</p>
      {moved && (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-info/25 bg-info-soft px-3 py-2 text-[13px] leading-5 text-info-text"
          data-testid={`${testId}-${list}-auth-moved`}
        >
          <ArrowRightLeft aria-hidden className="mt-0.5 size-4 shrink-0" />
          {t(moved === 'bearer' ? 'plans.authMoved.bearer' : 'plans.authMoved.basic')}
        </p>
      )}
      <ul className="space-y-2">
        {rows.map((row, index) => {
          const nameError = errors[`${list}.${row.id}.name`];
          const valueError = errors[`${list}.${row.id}.value`];
          const misplacedAuth = list === 'headers' && isReplacedAuthorizationHeader(row, entry.authorization);
          const rowLabel = `${t(texts.name)} ${index + 1}`;
          const removeButton = (
            <Button
              variant="ghost"
              size="icon"
              aria-label={t(texts.remove)}
              aria-disabled={removable ? undefined : 'true'}
              onClick={() => {
                if (removable) dispatch({ type: 'removeRow', entryId: entry.id, list, rowId: row.id });
              }}
              className="text-muted-foreground hover:text-destructive"
              data-testid={`${testId}-${list}-remove-${index}`}
            >
              <Trash2 />
            </Button>
          );
          return (
            <li key={row.id} className="space-y-1" onBlur={(event) => leaveRow(row, event)}>
              <div className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]">
                <Input
                  aria-label={rowLabel}
                  placeholder={t(texts.name)}
                  value={row.name}
                  aria-invalid={nameError || misplacedAuth ? true : undefined}
                  onChange={(event) => setRow(row, 'name', event.target.value)}
                  className="font-mono text-[13px]"
                  data-testid={`${testId}-${list}-name-${index}`}
                />
                <Input
                  aria-label={`${t('plans.rowValue')} ${index + 1}`}
                  placeholder={t('plans.rowValue')}
                  value={row.value}
                  aria-invalid={valueError ? true : undefined}
                  onChange={(event) => setRow(row, 'value', event.target.value)}
                  className="font-mono text-[13px] max-sm:col-span-2 max-sm:row-start-2"
                  data-testid={`${testId}-${list}-value-${index}`}
                />
                <div className="max-sm:col-start-2 max-sm:row-start-1">
                  {removable ? removeButton : <Tooltip content={t('plans.lastRow')}>{removeButton}</Tooltip>}
                </div>
              </div>
              {misplacedAuth && (
                <p className="text-[13px] leading-5 text-warning-text">{t('plans.authHeaderInList')}</p>
              )}
              {(nameError ?? valueError) && (
                <p className="text-[13px] leading-5 text-destructive" role="alert">
                  {translateCallMessage((nameError ?? valueError) as string, t)}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <Button
        variant="outline"
        size="sm"
        onClick={() => dispatch({ type: 'addRow', entryId: entry.id, list, row: emptyRow() })}
        data-testid={`${testId}-${list}-add`}
      >
        <Plus />
        {t(texts.add)}
      </Button>
    </div>
  );
}
