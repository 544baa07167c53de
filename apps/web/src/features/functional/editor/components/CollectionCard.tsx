import { iterationDataFormatOf, POSTMAN_LIMITS, readIterationData } from '@aqa/plan';
import { Braces, FileSpreadsheet, Plus, Trash2 } from 'lucide-react';
import { useMemo, type Dispatch } from 'react';
import { FilePickButton } from '@/components/file-pick-button';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import { SectionTitle } from '@/features/call-editor';
import {
  COLLECTION_OPTION_DEFAULTS,
  type CollectionForm,
  type VariableRow,
  type VariableScope,
} from '../model/collection-form';
import type { FunctionalFormAction } from '../model/functional-form';
import { ScriptBlocksPanel } from './ScriptBlocksPanel';

/** The fields of the plan's check whose problems show in this card. */
export const COLLECTION_FIELDS = [
  'variables',
  'environment',
  'globals',
  'scripts',
  'iteration_data',
] as const;

/**
 * A plan's variables, data file and run options (docs/adr/0029-postman-collections.md): the
 * collection's variables, an environment and globals (a Postman collection's scopes, the environment
 * over the collection over the globals), the data file that runs one iteration per row as Newman's
 * `-d`, the cookie jar and redirects, and the collection's own scripts when it has some.
 */
export function CollectionCard({
  collection,
  dispatch,
  errors,
  disabled,
}: {
  collection: CollectionForm;
  dispatch: Dispatch<FunctionalFormAction>;
  /** Problems by the model's field name (variables, environment…). */
  errors: Record<string, string>;
  disabled: boolean;
}) {
  const t = useT();
  const notice = useNotice();
  const data = collection.iterationData;
  const dataRead = useMemo(() => (data === null ? null : readIterationData(data)), [data]);

  const onDataFile = async (file: File) => {
    if (file.size > POSTMAN_LIMITS.iterationDataBytes) {
      notice.error(t('functional.postman.dataTooLarge', { file: file.name }));
      return;
    }
    const next = { name: file.name, format: iterationDataFormatOf(file.name), text: await file.text() };
    const read = readIterationData(next);
    if (read.problem !== undefined) {
      // A malformed file is refused as a whole: the plan keeps the file it had.
      notice.error(read.problem);
      return;
    }
    dispatch({ type: 'setIterationData', data: next });
  };

  const firstProblem = COLLECTION_FIELDS.map((f) => errors[f]).find((m) => m !== undefined);

  return (
    <Card className="space-y-5 p-4 sm:p-5" data-testid="functional-collection">
      <div className="space-y-0.5">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <Braces aria-hidden className="size-4 text-muted-foreground" />
          {t('functional.postman.title')}
        </h2>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.postman.text')}</p>
      </div>
      {firstProblem && (
        <p className="text-[13px] text-destructive" role="alert" data-testid="collection-error">
          {firstProblem}
        </p>
      )}
      <fieldset disabled={disabled} className="space-y-5">
        <VariableTable scope="variables" rows={collection.variables} dispatch={dispatch} />
        {collection.environmentName === null ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => dispatch({ type: 'setEnvironmentName', name: '' })}
            data-testid="add-environment"
          >
            <Plus />
            {t('functional.postman.addEnvironment')}
          </Button>
        ) : (
          <div className="space-y-2">
            <div className="flex items-end gap-2">
              <label className="grid flex-1 gap-1 text-[13px] font-medium">
                {t('functional.postman.environmentName')}
                <Input
                  value={collection.environmentName}
                  maxLength={200}
                  onChange={(e) => dispatch({ type: 'setEnvironmentName', name: e.target.value })}
                  data-testid="environment-name"
                />
              </label>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t('functional.postman.removeEnvironment')}
                onClick={() => dispatch({ type: 'setEnvironmentName', name: null })}
                data-testid="remove-environment"
              >
                <Trash2 />
              </Button>
            </div>
            <VariableTable scope="environment" rows={collection.environment} dispatch={dispatch} />
          </div>
        )}
        {collection.globals.length > 0 ? (
          <VariableTable scope="globals" rows={collection.globals} dispatch={dispatch} />
        ) : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => dispatch({ type: 'addVariable', scope: 'globals' })}
            data-testid="add-globals"
          >
            <Plus />
            {t('functional.postman.addGlobals')}
          </Button>
        )}

        <section className="space-y-2" data-testid="iteration-data">
          <SectionTitle
            icon={FileSpreadsheet}
            title={t('functional.postman.dataTitle')}
            text={t('functional.postman.dataText')}
          />
          {data !== null && (
            <div className="flex flex-wrap items-center gap-2 text-[13px]">
              <span className="font-mono" data-testid="iteration-data-name">
                {data.name}
              </span>
              <span className="text-muted-foreground" data-testid="iteration-data-rows">
                {dataRead?.rows !== undefined
                  ? t('functional.postman.dataRows', { count: dataRead.rows.length })
                  : dataRead?.problem}
              </span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t('functional.postman.removeData', { file: data.name })}
                onClick={() => dispatch({ type: 'setIterationData', data: null })}
                data-testid="remove-iteration-data"
              >
                <Trash2 />
              </Button>
            </div>
          )}
          <FilePickButton
            accept=".csv,.json,text/csv,application/json"
            onFile={(file) => void onDataFile(file)}
            inputTestId="iteration-data-file"
            variant="outline"
            size="sm"
            disabled={disabled}
            data-testid="pick-iteration-data"
          >
            <FileSpreadsheet />
            {data === null ? t('functional.postman.attachData') : t('functional.postman.replaceData')}
          </FilePickButton>
        </section>

        <div className="flex flex-wrap gap-x-6 gap-y-2 text-[13px]">
          {(['cookieJar', 'followRedirects', 'defaultStatusRule'] as const).map((option) => (
            <label key={option} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={collection[option] ?? COLLECTION_OPTION_DEFAULTS[option]}
                onChange={(e) => dispatch({ type: 'setOption', option, value: e.target.checked })}
                data-testid={`option-${option}`}
              />
              {t(`functional.postman.${option}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <ScriptBlocksPanel
        scripts={collection.scripts}
        owner={{ plan: true }}
        dispatch={dispatch}
        testId="collection"
      />
    </Card>
  );
}

function VariableTable({
  scope,
  rows,
  dispatch,
}: {
  scope: VariableScope;
  rows: VariableRow[];
  dispatch: Dispatch<FunctionalFormAction>;
}) {
  const t = useT();
  const title = t(`functional.postman.scope.${scope}`);
  return (
    <section className="space-y-2" data-testid={`vars-${scope}`}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-[13px] text-muted-foreground">{t('functional.postman.noVariables')}</p>
      ) : (
        <ul className="space-y-2">
          {rows.map((row, index) => (
            <li key={row.id} className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] gap-2">
              {(['name', 'value'] as const).map((field) => (
                <Input
                  key={field}
                  aria-label={`${title} ${index + 1} ${t(`functional.postman.variable.${field}`)}`}
                  placeholder={t(`functional.postman.variable.${field}`)}
                  value={row[field]}
                  spellCheck={false}
                  autoComplete="off"
                  className="font-mono text-[13px]"
                  onChange={(e) =>
                    dispatch({
                      type: 'setVariable',
                      scope,
                      rowId: row.id,
                      patch: { [field]: e.target.value },
                    })
                  }
                  data-testid={`vars-${scope}-${index}-${field}`}
                />
              ))}
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t('functional.postman.removeVariable', { scope: title, number: index + 1 })}
                onClick={() => dispatch({ type: 'removeVariable', scope, rowId: row.id })}
                data-testid={`vars-${scope}-${index}-remove`}
              >
                <Trash2 />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => dispatch({ type: 'addVariable', scope })}
        data-testid={`vars-${scope}-add`}
      >
        <Plus />
        {t('functional.postman.addVariable')}
      </Button>
    </section>
  );
}
