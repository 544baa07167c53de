import { fileStem, planToCsv, planToPostman, planToXlsx, type ScriptWarning } from '@aqa/converters';
import { FileJson, FileSpreadsheet, Sheet } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { downloadBlob, downloadText } from '@/lib/download';
import { checkScriptRequest } from '../model/form-to-plan';
import type { PlanForm } from '../model/plan-form';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Export of the plan's APIs for other tools, made in the browser: a Postman collection (v2.1), and the
 * CSV / Excel layout the upload screen imports (edit in a spreadsheet, upload again). What a collection
 * cannot hold is listed after the download, per API and field.
 */
export function PlanExport({ form }: { form: PlanForm }) {
  const t = useT();
  const [warnings, setWarnings] = useState<ScriptWarning[] | null>(null);
  const check = checkScriptRequest(form);
  const name = form.name.trim() || t('plans.unnamed');
  const stem = fileStem(form.name.trim());

  const exportPostman = () => {
    if (!check.ok) return;
    const { collection, warnings: found } = planToPostman({
      name,
      description: form.description,
      urls: check.request.urls,
    });
    downloadText(
      `${JSON.stringify(collection, null, 2)}\n`,
      `${stem}.postman_collection.json`,
      'application/json;charset=utf-8',
    );
    setWarnings(found);
  };
  const exportCsv = () => {
    if (!check.ok) return;
    downloadText(planToCsv(check.request), `${stem}.csv`, 'text/csv;charset=utf-8');
    setWarnings(null);
  };
  const exportXlsx = () => {
    if (!check.ok) return;
    // A copy with a plain ArrayBuffer: Blob parts must not be views of a shared buffer.
    const bytes = new Uint8Array(planToXlsx(check.request));
    downloadBlob(new Blob([bytes], { type: XLSX_TYPE }), `${stem}.xlsx`);
    setWarnings(null);
  };

  return (
    <section className="space-y-2" data-testid="plan-export">
      <h3 className="text-sm font-semibold">{t('plans.export.title')}</h3>
      <p className="text-[13px] text-muted-foreground">{t('plans.export.text')}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={!check.ok}
          onClick={exportPostman}
          data-testid="export-postman"
        >
          <FileJson />
          {t('plans.export.postman')}
        </Button>
        <Button variant="outline" size="sm" disabled={!check.ok} onClick={exportCsv} data-testid="export-csv">
          <Sheet />
          {t('plans.export.csv')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!check.ok}
          onClick={exportXlsx}
          data-testid="export-xlsx"
        >
          <FileSpreadsheet />
          {t('plans.export.xlsx')}
        </Button>
      </div>
      {!check.ok && (
        <p className="text-[13px] text-muted-foreground" data-testid="export-blocked">
          {t('plans.export.blocked')}
        </p>
      )}
      {warnings && warnings.length > 0 && (
        <Alert variant="warning" data-testid="export-warnings">
          <p className="font-medium">{t('plans.export.warnings', { count: String(warnings.length) })}</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-[13px]">
            {warnings.map((warning) => (
              <li key={`${warning.field}:${warning.message}`}>{warning.message}</li>
            ))}
          </ul>
        </Alert>
      )}
    </section>
  );
}
