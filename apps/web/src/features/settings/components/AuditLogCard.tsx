import { contract } from '@aqa/contract';
import type { AuditEntry } from '@aqa/plan';
import { Download, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { useNotice } from '@/components/notices';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/features/history';
import { useI18n, type Translate } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { useRouteQuery, viewOf } from '@/lib/queries';
import { downloadAuditCsv } from '../queries/audit-api';

/** How many entries the card lists; the CSV has them all. */
const LISTED = 50;

function lineOf(entry: AuditEntry, t: Translate): string {
  return t('audit.line', {
    actor: entry.actor_email,
    action: t(`audit.action.${entry.action}`),
    object: t(`audit.object.${entry.object}`),
  });
}

/**
 * Settings → Audit log (docs/adr/0034-audit-log.md): the newest entries — when, who, what was done to
 * what, its name or id, and whether an API token did it — and the whole log as CSV.
 */
export function AuditLogCard() {
  const { t, locale } = useI18n();
  const notice = useNotice();
  const query = useRouteQuery(contract.audit.list, { query: { limit: LISTED } });
  const log = viewOf(query);
  const [downloading, setDownloading] = useState(false);

  async function handleDownload() {
    setDownloading(true);
    try {
      await downloadAuditCsv();
    } catch (error) {
      notice.error(t('audit.downloadFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Card data-testid="audit-log">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <ScrollText aria-hidden className="size-4 text-muted-foreground" />
          {t('audit.title')}
        </CardTitle>
        <CardDescription>
          {t('audit.text', { days: log.status === 'success' ? log.data.retention_days : 365 })}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Button
          variant="outline"
          size="sm"
          disabled={downloading}
          onClick={() => void handleDownload()}
          data-testid="audit-download"
        >
          {downloading ? <Spinner /> : <Download aria-hidden />}
          {t('audit.download')}
        </Button>
        {log.status === 'loading' && <LoadingBlock text={t('audit.loading')} className="py-6" />}
        {log.status === 'error' && (
          <ErrorBlock
            title={t('audit.loadFailed')}
            detail={errorDetailMessage(log.error, t)}
            onRetry={() => void query.refetch()}
          />
        )}
        {log.status === 'success' && log.data.entries.length === 0 && (
          <EmptyBlock
            icon={ScrollText}
            title={t('audit.empty')}
            text={t('audit.emptyText')}
            className="py-6"
          />
        )}
        {log.status === 'success' && log.data.entries.length > 0 && (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="audit-list">
            {log.data.entries.map((entry) => (
              <li
                key={entry.id}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2.5 text-sm"
                data-testid="audit-row"
              >
                <span className="tabular-nums text-[13px] text-muted-foreground">
                  {formatDateTime(entry.at, locale, 'medium') ?? entry.at}
                </span>
                <span className="min-w-0 flex-1">
                  {lineOf(entry, t)}
                  {(entry.object_name ?? entry.object_id) !== null && (
                    <>
                      {' '}
                      <span className="font-medium">{entry.object_name ?? entry.object_id}</span>
                    </>
                  )}
                </span>
                {entry.via === 'api_token' && <Badge variant="outline">{t('audit.viaToken')}</Badge>}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
