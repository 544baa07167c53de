import type { RunAgent, RunAgentStatus } from '@aqa/plan';
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
  const head = 'whitespace-nowrap px-3 py-2.5 text-xs font-medium text-muted-foreground first:pl-6 last:pr-6';
  const cell = 'whitespace-nowrap px-3 py-3 first:pl-6 last:pr-6';
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
      <div className="overflow-x-auto pb-2">
        <table className="w-full min-w-[560px] text-left text-sm">
          <thead className="border-y border-border bg-muted/40">
            <tr>
              <th scope="col" className={head}>
                {t('agents.name')}
              </th>
              <th scope="col" className={head}>
                {t('agents.host')}
              </th>
              <th scope="col" className={`${head} text-right`}>
                {t('agents.users')}
              </th>
              <th scope="col" className={head}>
                {t('agents.status')}
              </th>
              <th scope="col" className={`${head} text-right`}>
                {t('agents.requests')}
              </th>
              {live && (
                <th scope="col" className={`${head} text-right`}>
                  {t('agents.rps')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => (
              <tr
                key={agent.agent_id}
                className="border-b border-border last:border-0"
                data-testid="run-agent"
              >
                <td className={`${cell} font-medium`}>{agent.name}</td>
                <td className={`${cell} text-muted-foreground`}>{agent.host}</td>
                <td className={`${cell} num text-right`}>{formatCount(agent.users, locale)}</td>
                <td className={cell}>
                  <Badge variant={STATUS_VARIANT[agent.status]} data-status={agent.status}>
                    {t(`agents.status.${agent.status}`)}
                  </Badge>
                </td>
                <td className={`${cell} num text-right`}>{formatCount(agent.requests, locale)}</td>
                {live && (
                  <td className={`${cell} num text-right`}>{formatRps(agent.requests_per_second, locale)}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
