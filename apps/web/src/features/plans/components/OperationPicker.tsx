import { ListChecks, Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useShownItems } from '@/components/show-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import {
  filterOperations,
  NO_FILTER,
  operationFacets,
  type ImportOperation,
  type OperationFilter,
} from '../model/operation-choice';
import { NativeSelect } from '@/components/ui/native-select';
import { methodTone } from '@/features/call-editor';

/**
 * The choice of operations of a large import (docs/reference/01-authoring.md §2 "Performance: script
 * upload"): search (path, method, tag, operationId, name), a tag and a method filter, a check box per
 * operation with Select all / Select none for the operations shown, and "Import N selected". Everything
 * starts selected, so that importing the whole document stays one click.
 */
export function OperationPicker({
  operations,
  source,
  onImport,
  onBack,
}: {
  operations: readonly ImportOperation[];
  /** The file name. */
  source: string;
  onImport: (indexes: number[]) => void;
  onBack: () => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const count = (n: number) => n.toLocaleString(locale);
  const [filter, setFilter] = useState<OperationFilter>(NO_FILTER);
  const [selected, setSelected] = useState<ReadonlySet<number>>(
    () => new Set(operations.map((operation) => operation.index)),
  );
  const facets = useMemo(() => operationFacets(operations), [operations]);
  const matching = useMemo(() => filterOperations(operations, filter), [operations, filter]);
  const { shown, more } = useShownItems(matching);
  const filtered = matching.length < operations.length;
  const set = (patch: Partial<OperationFilter>) => setFilter((current) => ({ ...current, ...patch }));

  const toggle = (index: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });
  const selectMatching = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const operation of matching) {
        if (on) next.add(operation.index);
        else next.delete(operation.index);
      }
      return next;
    });
  const chosen = operations.filter((operation) => selected.has(operation.index)).map((o) => o.index);

  return (
    <Card data-testid="operation-picker">
      <CardHeader className="p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle as="h2" className="flex items-center gap-2">
          <ListChecks aria-hidden className="size-4 text-muted-foreground" />
          {t('importPick.title')}
        </CardTitle>
        <CardDescription>{t('importPick.text', { source, total: count(operations.length) })}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 px-4 pb-4 sm:px-6 sm:pb-6">
        <div className="grid grid-cols-1 gap-3 md:grid-cols-[minmax(0,1fr)_12rem_10rem]">
          <div className="space-y-1.5">
            <label htmlFor={`${id}-search`} className="text-sm font-medium">
              {t('importPick.search')}
            </label>
            <div className="relative">
              <Search
                aria-hidden
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                id={`${id}-search`}
                type="search"
                value={filter.query}
                placeholder={t('importPick.searchPlaceholder')}
                onChange={(event) => set({ query: event.target.value })}
                className="pl-9"
                data-testid="pick-search"
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${id}-tag`} className="text-sm font-medium">
              {t('importPick.tag')}
            </label>
            <NativeSelect
              id={`${id}-tag`}
              value={filter.tag}
              disabled={facets.tags.length === 0}
              onChange={(event) => set({ tag: event.target.value })}
              data-testid="pick-tag"
            >
              <option value="">{t('importPick.allTags')}</option>
              {facets.tags.map((tag) => (
                <option key={tag} value={tag}>
                  {tag}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${id}-method`} className="text-sm font-medium">
              {t('importPick.method')}
            </label>
            <NativeSelect
              id={`${id}-method`}
              value={filter.method}
              onChange={(event) => set({ method: event.target.value })}
              data-testid="pick-method"
            >
              <option value="">{t('importPick.allMethods')}</option>
              {facets.methods.map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>

        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm" aria-live="polite" data-testid="pick-count">
            <span className="num font-medium">
              {t('importPick.selected', { selected: count(chosen.length), total: count(operations.length) })}
            </span>
            {filtered && (
              <span className="text-muted-foreground">
                {' · '}
                {t('importPick.shown', { count: count(matching.length) })}
              </span>
            )}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={matching.length === 0}
              onClick={() => selectMatching(true)}
              data-testid="pick-all"
            >
              {filtered
                ? t('importPick.selectAllShown', { count: count(matching.length) })
                : t('importPick.selectAll')}
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={matching.length === 0}
              onClick={() => selectMatching(false)}
              data-testid="pick-none"
            >
              {filtered
                ? t('importPick.selectNoneShown', { count: count(matching.length) })
                : t('importPick.selectNone')}
            </Button>
          </div>
        </div>

        {matching.length === 0 ? (
          <p className="rounded-lg border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">
            {t('importPick.noMatch')}
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-lg border" data-testid="pick-list">
            {shown.map((operation) => (
              <li key={operation.index}>
                <label
                  className="flex cursor-pointer items-start gap-3 px-3 py-2 hover:bg-muted/50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
                  data-testid="pick-row"
                >
                  <input
                    type="checkbox"
                    checked={selected.has(operation.index)}
                    onChange={(event) => toggle(operation.index, event.target.checked)}
                    className="mt-1 size-4 shrink-0 accent-primary"
                    data-testid={`pick-${operation.index}`}
                  />
                  <span className="min-w-0 flex-1 space-y-0.5">
                    <span className="flex min-w-0 flex-wrap items-center gap-2">
                      <Badge variant="outline" className={cn('font-mono', methodTone(operation.method))}>
                        {operation.method}
                      </Badge>
                      <span className="min-w-0 break-all font-mono text-[13px]">{operation.path}</span>
                    </span>
                    <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-[12px] text-muted-foreground">
                      <span className="min-w-0 [overflow-wrap:anywhere]">{operation.name}</span>
                      {operation.operationId && operation.operationId !== operation.name && (
                        <code className="break-all font-mono">{operation.operationId}</code>
                      )}
                      {operation.tags.map((tag) => (
                        <span key={tag} className="rounded bg-muted px-1.5 py-0.5 text-foreground/80">
                          {tag}
                        </span>
                      ))}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {more}

        <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={onBack} data-testid="pick-back">
            {t('importPick.back')}
          </Button>
          <Button
            type="button"
            disabled={chosen.length === 0}
            onClick={() => onImport(chosen)}
            data-testid="pick-import"
          >
            {t('importPick.import', { count: count(chosen.length) })}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
