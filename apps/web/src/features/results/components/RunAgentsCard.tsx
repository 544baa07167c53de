import type { RunAgent, RunAgentStatus } from '@aqa/plan';
import { DataTable, type DataColumn } from '@/components/data-table';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n } from '@/i18n';
import { formatCount, formatRps } from '../model/format';

const STATUS_VARIANT: Record<RunAgentStatus, NonNullable<BadgeProps['variant']>> = {
  waiting: 'secondary',
  running: 'info',
  done: 'success',
  lost: 'destructive',
  failed: 'destructive',
};

/** The agents' names joined for a sentence: "a", "a and b", "a, b and c" (English) or "a, b" (Korean). */
function joinNames(names: string[], language: string): string {
  if (language === 'ko' || names.length < 2) return names.join(', ');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The agents a run is split over (docs/scale-out.md): each one's users, state, requests and its own
 * throughput over the last second, live and in the stored result; a partial result names the lost.
 */
export function RunAgentsCard({ agents, live }: { agents: readonly RunAgent[]; live: boolean }) {
  const { t, locale, language } = useI18n();
  if (agents.length === 0) return null;
  const gone = agents.filter((agent) => agent.status === 'lost' || agent.status === 'failed');
  const columns: DataColumn<RunAgent>[] = [
    { key: 'name', header: t('agents.name'), cellClassName: 'font-medium', cell: (agent) => agent.name },
    {
      key: 'host',
      header: t('agents.host'),
      cellClassName: 'text-muted-foreground',
      cell: (agent) => agent.host,
    },
    {
      key: 'users',
      header: t('agents.users'),
      numeric: true,
      cellClassName: 'num',
      cell: (agent) => formatCount(agent.users, locale),
    },
    {
      key: 'status',
      header: t('agents.status'),
      cell: (agent) => (
        <Badge variant={STATUS_VARIANT[agent.status]} data-status={agent.status}>
          {t(`agents.status.${agent.status}`)}
        </Badge>
      ),
    },
    {
      key: 'requests',
      header: t('agents.requests'),
      numeric: true,
      cellClassName: 'num',
      cell: (agent) => formatCount(agent.requests, locale),
    },
  ];
  if (live) {
    columns.push({
      key: 'rps',
      header: t('agents.rps'),
      numeric: true,
      cellClassName: 'num',
      cell: (agent) => formatRps(agent.requests_per_second, locale),
    });
  }
  return (
    <Card data-testid="run-agents">
      <CardHeader className="pb-3">
        <CardTitle as="h3">{t('agents.runTitle')}</CardTitle>
        <CardDescription>{t('agents.runText')}</CardDescription>
      </CardHeader>
      {gone.length > 0 && (
        <div className="px-6 pb-3">
          <Alert variant="warning" data-testid="run-agents-partial">
            {t('agents.partial', {
              names: joinNames(
                gone.map((agent) => agent.name),
                language,
              ),
            })}
            <ul className="mt-1 list-disc pl-5">
              {gone.map((agent) => (
                <li key={agent.agent_id}>
                  {agent.name}: {agent.error ?? t(`agents.status.${agent.status}`)}
                </li>
              ))}
            </ul>
          </Alert>
        </div>
      )}
      <DataTable
        columns={columns}
        rows={agents}
        rowKey={(agent) => agent.agent_id}
        rowAttributes={() => ({ 'data-testid': 'run-agent' })}
        minWidth="min-w-[560px]"
      />
    </Card>
  );
}
