import { contract } from '@aqa/contract';
import { call } from '@/lib/api';
import { downloadBlob } from '@/lib/download';

/** GET /api/audit/export, saved as audit-log.csv (docs/adr/0034-audit-log.md). */
export async function downloadAuditCsv(): Promise<void> {
  const text: string = await call(contract.audit.export, {}, { responseType: 'text' });
  downloadBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), 'audit-log.csv');
}
