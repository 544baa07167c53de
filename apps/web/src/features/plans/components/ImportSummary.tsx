import { FileCheck2, TriangleAlert, Variable } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { useT } from '@/i18n';
import type { NeededValue } from '../queries/import-api';
import type { ImportedApis } from './UploadStep';

/** Warnings shown before the list is folded away: enough to read, not a wall. */
const SHOWN_WARNINGS = 5;
/** Calls named per variable before "and N more": a variable of Stripe's is used by hundreds. */
const SHOWN_CALLS = 3;

/**
 * What the last upload brought in: the file, what it is, how many APIs — and what the importer could not
 * carry over (scripts that are not run, external $refs, unsupported auth), so that nothing is lost unseen.
 */
export function ImportSummary({ imported }: { imported: ImportedApis }) {
  const t = useT();
  const { info, warnings, entries, source, needsValue } = imported;
  const shown = warnings.slice(0, SHOWN_WARNINGS);
  const rest = warnings.slice(SHOWN_WARNINGS);
  const title = info.title.trim();
  return (
    <div className="space-y-3" data-testid="import-summary">
      <Alert variant="success" icon={false}>
        <span className="flex items-start gap-2">
          <FileCheck2 aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 break-words" data-testid="import-result">
            {t('scriptInput.imported', { count: entries.length, source })}
            {' · '}
            {title ? `${info.kind} · ${title}` : info.kind}
          </span>
        </span>
      </Alert>
      {needsValue.length > 0 && <NeedsValue needed={needsValue} />}
      {warnings.length > 0 && (
        <Alert
          variant="warning"
          icon={false}
          title={
            <span className="flex items-center gap-2">
              <TriangleAlert aria-hidden className="size-4" />
              {t('scriptInput.warningsTitle', { count: warnings.length })}
            </span>
          }
          data-testid="import-warnings"
        >
          <ul className="mt-1 space-y-1 text-[13px] text-foreground">
            {shown.map((warning, index) => (
              <li key={`${warning.location}-${index}`} className="break-words">
                <span className="font-mono text-[12px] font-medium text-warning-text">
                  {warning.location}
                </span>{' '}
                — {warning.message}
              </li>
            ))}
          </ul>
          {rest.length > 0 && (
            <details className="mt-1 text-[13px]">
              <summary className="cursor-pointer select-none font-medium">
                {t('scriptInput.moreWarnings', { count: rest.length })}
              </summary>
              <ul className="mt-1 space-y-1 text-foreground">
                {rest.map((warning, index) => (
                  <li key={`${warning.location}-${index}`} className="break-words">
                    <span className="font-mono text-[12px] font-medium text-warning-text">
                      {warning.location}
                    </span>{' '}
                    — {warning.message}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </Alert>
      )}
    </div>
  );
}

/**
 * The {{variables}} the calls send as written because the file gives them no value: listed first, since a
 * plan that sends "{{petId}}" runs but does not test what it should.
 */
function NeedsValue({ needed }: { needed: NeededValue[] }) {
  const t = useT();
  return (
    <Alert
      variant="warning"
      icon={false}
      title={
        <span className="flex items-center gap-2">
          <Variable aria-hidden className="size-4" />
          {t('scriptInput.needsValueTitle', { count: needed.length })}
        </span>
      }
      data-testid="import-needs-value"
    >
      <p className="text-[13px] text-foreground">{t('scriptInput.needsValueText')}</p>
      <ul className="mt-1 space-y-1 text-[13px] text-foreground">
        {needed.map(({ name, calls }) => {
          const shown = calls.slice(0, SHOWN_CALLS).join(', ');
          const list =
            calls.length > SHOWN_CALLS
              ? t('scriptInput.needsValueMore', { calls: shown, count: calls.length - SHOWN_CALLS })
              : shown;
          return (
            <li key={name} className="break-words" data-testid="needs-value-item">
              <code className="font-mono text-[12px] font-medium text-warning-text">{`{{${name}}}`}</code> —{' '}
              {t('scriptInput.needsValueCalls', { calls: list })}
            </li>
          );
        })}
      </ul>
    </Alert>
  );
}
