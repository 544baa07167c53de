import { contract } from '@aqa/contract';
import { describeSchedule, type Schedule } from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Power, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { PageHeader } from '@/components/page-header';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useI18n, type Translate } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes, useRouteQuery, viewOf } from '@/lib/queries';
import { screenPath } from '@/lib/screens';
import { formatInZone } from '../model/schedule-words';
import { ViewerNotice } from '@/components/viewer-notice';
import { useWorkspace } from '@/lib/workspace';
import { deleteSchedule, updateSchedule } from '../queries/schedules-api';
import { ScheduleForm } from './ScheduleForm';

const OUTCOME_VARIANT = {
  started: 'success',
  skipped: 'warning',
  not_started: 'destructive',
  missed: 'warning',
} as const;

/**
 * Schedules (docs/adr/0031-schedules.md, docs/reference/02-running.md "Schedules"): add one, and see each
 * with its plan, its times in words, its next run, what happened the last time it came round (a link to
 * the run it started, or why it did not start), turn it off and on, delete it.
 */
export default function SchedulesPage() {
  const { t } = useI18n();
  const notice = useNotice();
  const queryClient = useQueryClient();
  const query = useRouteQuery(contract.schedules.list);
  const schedules = viewOf(query);
  const reload = () => void invalidateRoutes(queryClient, contract.schedules.list);
  // Viewers see the schedules, not the form nor the switches (docs/adr/0035-workspaces-and-roles.md).
  const { readOnly } = useWorkspace();

  return (
    <div className="space-y-6">
      <PageHeader title={t('schedules.title')} description={t('schedules.text')} />
      <ViewerNotice />
      {!readOnly && (
        <Card>
          <CardHeader>
            <CardTitle as="h2" className="flex items-center gap-2">
              <CalendarClock aria-hidden className="size-4 text-muted-foreground" />
              {t('schedules.new')}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ScheduleForm
              onCreated={(schedule) => {
                notice.success(t('schedules.added', { name: schedule.plan_name }));
                reload();
              }}
            />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle as="h2">{t('schedules.listTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          {schedules.status === 'loading' && <LoadingBlock text={t('schedules.loading')} className="py-6" />}
          {schedules.status === 'error' && (
            <ErrorBlock
              title={t('schedules.loadFailed')}
              detail={errorDetailMessage(schedules.error, t)}
              onRetry={() => void query.refetch()}
            />
          )}
          {schedules.status === 'success' && schedules.data.schedules.length === 0 && (
            <EmptyBlock
              icon={CalendarClock}
              title={t('schedules.empty')}
              text={t('schedules.emptyText')}
              className="py-6"
              data-testid="schedule-list-empty"
            />
          )}
          {schedules.status === 'success' && schedules.data.schedules.length > 0 && (
            <ul
              className="divide-y divide-border rounded-lg border border-border"
              data-testid="schedule-list"
            >
              {schedules.data.schedules.map((schedule) => (
                <ScheduleRow key={schedule.id} schedule={schedule} onChanged={reload} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The result page of the run a schedule started. */
function runPath(schedule: Schedule, runId: string): string {
  return schedule.plan_kind === 'load'
    ? screenPath('testResult', { testId: runId })
    : screenPath('functionalResult', { testId: runId });
}

function lastRunReason(schedule: Schedule, t: Translate): string | null {
  const last = schedule.last_run;
  if (last === null) return null;
  if (last.outcome === 'skipped') return t('schedules.reason.skipped');
  if (last.outcome === 'missed') return t('schedules.reason.missed');
  return last.reason;
}

function ScheduleRow({ schedule, onChanged }: { schedule: Schedule; onChanged: () => void }) {
  const { t, language, locale } = useI18n();
  const notice = useNotice();
  const confirm = useConfirm();
  const [busy, setBusy] = useState(false);
  const { readOnly } = useWorkspace();
  const name = schedule.plan_name === '' ? t('schedules.deletedPlan') : schedule.plan_name;
  const last = schedule.last_run;
  const reason = lastRunReason(schedule, t);

  async function change(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await work();
      notice.success(done);
    } catch (error) {
      notice.error(t('schedules.changeFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  async function handleDelete() {
    const confirmed = await confirm({
      message: t('schedules.confirmDelete', { name }),
      confirmLabel: t('schedules.delete'),
      destructive: true,
    });
    if (confirmed) await change(() => deleteSchedule(schedule.id), t('schedules.deleted', { name }));
  }

  return (
    <li
      className="grid gap-x-6 gap-y-2 px-4 py-3 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
      data-testid="schedule-row"
      data-enabled={schedule.enabled}
    >
      <div className="min-w-0">
        <p className="flex items-center gap-2 text-sm font-medium">
          <span className="truncate" data-testid="schedule-row-plan">
            {name}
          </span>
          <Badge variant="outline">{schedule.test_type || schedule.plan_kind}</Badge>
          {!schedule.enabled && <Badge variant="secondary">{t('schedules.off')}</Badge>}
        </p>
        <p className="mt-0.5 text-[13px] text-muted-foreground" data-testid="schedule-row-when">
          {describeSchedule(schedule.cron, schedule.timezone, language) ?? schedule.cron}
          <span className="ml-2 font-mono text-xs">{schedule.cron}</span>
        </p>
      </div>
      <div className="text-[13px]">
        <p className="text-muted-foreground">{t('schedules.colNext')}</p>
        <p className="tabular-nums" data-testid="schedule-row-next">
          {schedule.next_runs[0] === undefined
            ? t('schedules.off')
            : formatInZone(schedule.next_runs[0], schedule.timezone, locale)}
        </p>
      </div>
      <div className="min-w-0 text-[13px]" data-testid="schedule-row-last">
        <p className="text-muted-foreground">{t('schedules.colLast')}</p>
        {last === null ? (
          <p>{t('schedules.never')}</p>
        ) : (
          <>
            <p className="flex flex-wrap items-center gap-2">
              <Badge variant={OUTCOME_VARIANT[last.outcome]} data-testid="schedule-row-outcome">
                {t(`schedules.outcome.${last.outcome}`)}
              </Badge>
              <span className="tabular-nums">{formatInZone(last.at, schedule.timezone, locale)}</span>
              {last.run_id !== null && (
                <Link
                  className="text-primary underline-offset-4 hover:underline"
                  to={runPath(schedule, last.run_id)}
                >
                  {t('schedules.viewRun')}
                </Link>
              )}
            </p>
            {reason !== null && <p className="mt-0.5 text-muted-foreground">{reason}</p>}
          </>
        )}
      </div>
      {!readOnly && (
        <div className="flex items-start gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() =>
              void change(
                () => updateSchedule(schedule.id, { enabled: !schedule.enabled }),
                t(schedule.enabled ? 'schedules.turnedOff' : 'schedules.turnedOn', { name }),
              )
            }
            data-testid="schedule-toggle"
          >
            {busy ? <Spinner /> : <Power aria-hidden />}
            {t(schedule.enabled ? 'schedules.turnOff' : 'schedules.turnOn')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            aria-label={t('schedules.deleteLabel', { name })}
            onClick={() => void handleDelete()}
            data-testid="schedule-delete"
          >
            <Trash2 aria-hidden />
            {t('schedules.delete')}
          </Button>
        </div>
      )}
    </li>
  );
}
