import { REPORT_FORMATS } from '@aqa/contract';
import type { AccountUser } from '../../account-user';
import type { RunService } from '../../runs/run.service';
import { renderCsvReport } from './csv-report';
import { renderHtmlReport } from './html-report';

/** The report formats are a wire vocabulary: the contract's ReportQuerySchema names them. */
export { REPORT_FORMATS };
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportFile {
  filename: string;
  contentType: string;
  body: string;
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** A file-name-safe form of a plan name: "Shop API (v2)" → "shop-api-v2"; "run" when nothing is left. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    // Accents come apart from their letters under NFKD; dropping them keeps "café" as "cafe".
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'run' : slug;
}

/** A run as a download: a self-contained HTML report, or its data as JSON or CSV. */
export class ReportService {
  constructor(private readonly runService: RunService) {}

  async report(user: AccountUser, id: string, format: ReportFormat): Promise<ReportFile> {
    const run = await this.runService.pastRun(user, id);
    const [result, chart] = await Promise.all([
      this.runService.result(user, id),
      this.runService.chartData(user, id),
    ]);
    const filename = `report_${slugOf(run.plan_name)}_${run.test_id}.${format}`;
    const body =
      format === 'html'
        ? renderHtmlReport({ run, result, chart, generatedAt: new Date().toISOString() })
        : format === 'json'
          ? JSON.stringify({ run, result, chart_data: chart }, null, 2)
          : renderCsvReport(chart);
    return { filename, contentType: CONTENT_TYPES[format], body };
  }
}
