import type { FailureEvidence as Evidence } from '@aqa/plan';
import { useI18n } from '@/i18n';

function Headers({ headers }: { headers: Readonly<Record<string, string>> }) {
  const { t } = useI18n();
  const entries = Object.entries(headers);
  if (entries.length === 0) {
    return <p className="text-xs text-muted-foreground">{t('functional.result.evidence.noHeaders')}</p>;
  }
  return (
    <dl className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-3 gap-y-0.5 font-mono text-[12px]">
      {entries.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="break-all text-muted-foreground">{name}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ body, testId }: { body: string; testId: string }) {
  const { t } = useI18n();
  if (body === '') {
    return <p className="text-xs text-muted-foreground">{t('functional.result.evidence.emptyBody')}</p>;
  }
  return (
    <pre
      className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted/60 p-2 font-mono text-[12px] leading-5"
      data-testid={testId}
    >
      {body}
    </pre>
  );
}

/**
 * What a failed call sent and got back (docs/design.md §9): the request, and the response's status,
 * headers and first 64 KB of body, marked when cut. The server masks secret header values before they
 * reach the screen.
 */
export function FailureEvidence({ evidence }: { evidence: Evidence }) {
  const { t } = useI18n();
  const { request, response } = evidence;
  return (
    <details className="group rounded-lg border border-border" data-testid="call-evidence">
      <summary className="cursor-pointer select-none px-3 py-2 text-sm font-medium">
        {t('functional.result.evidence.title')}
      </summary>
      <div className="grid gap-4 border-t border-border p-3 lg:grid-cols-2">
        <section className="min-w-0 space-y-2" data-testid="evidence-request">
          <h5 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {t('functional.result.evidence.request')}
          </h5>
          <p className="break-all font-mono text-[12px]">
            <span className="font-semibold">{request.method}</span> {request.url}
          </p>
          <Headers headers={request.headers} />
          <Body body={request.body} testId="evidence-request-body" />
        </section>
        <section className="min-w-0 space-y-2" data-testid="evidence-response">
          <h5 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {t('functional.result.evidence.response')}
          </h5>
          {response === null ? (
            <p className="text-sm text-muted-foreground">{t('functional.result.evidence.noResponse')}</p>
          ) : (
            <>
              <p className="font-mono text-[12px]" data-testid="evidence-response-status">
                {t('functional.result.evidence.status', { code: String(response.status) })}
              </p>
              <Headers headers={response.headers} />
              <Body body={response.body} testId="evidence-response-body" />
              {response.truncated && (
                <p className="text-xs text-warning-text" data-testid="evidence-truncated">
                  {t('functional.result.evidence.truncated')}
                </p>
              )}
            </>
          )}
        </section>
      </div>
    </details>
  );
}
