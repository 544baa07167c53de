import type { AgentInfo } from '@aqa/plan';
import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { isAgentsUnavailable, useAgents } from '@/features/agents';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { screenPath } from '@/lib/screens';
import { viewOf } from '@/lib/queries';
import { agentCommand } from '../model/commands';
import { CommandBlock } from './CommandBlock';

function AgentState({ agent }: { agent: AgentInfo }) {
  const { t } = useI18n();
  if (!agent.online) return <Badge variant="secondary">{t('agents.offline')}</Badge>;
  return (
    <Badge variant={agent.run_id === null ? 'success' : 'info'}>
      {t('agents.online')} · {agent.run_id === null ? t('agents.idle') : t('agents.busy')}
    </Badge>
  );
}

/**
 * Load agents on the Download App screen (docs/scale-out.md): the command that starts one on another
 * machine, and the user's registered agents with their state from their heartbeats.
 */
export function AgentsCard() {
  const { t, locale } = useI18n();
  const query = useAgents();
  const agents = viewOf(query);
  return (
    <Card data-testid="download-agents">
      <CardHeader>
        <CardTitle as="h2">{t('agents.listTitle')}</CardTitle>
        <CardDescription>{t('agents.listText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <CommandBlock
          block={{ id: 'agent', title: 'agents.startTitle', hint: 'agents.startHint' }}
          text={agentCommand(window.location.origin)}
        />
        <Button asChild variant="outline" size="sm">
          <Link to={screenPath('settings')} data-testid="agents-token-link">
            <KeyRound aria-hidden />
            {t('agents.tokenLink')}
          </Link>
        </Button>
        {agents.status === 'loading' || agents.status === 'idle' ? (
          <LoadingBlock text={t('agents.loading')} className="py-4" />
        ) : agents.status === 'error' ? (
          isAgentsUnavailable(agents.error) ? (
            <p className="text-sm text-muted-foreground" data-testid="agents-unavailable">
              {t('agents.unavailable')}
            </p>
          ) : (
            <ErrorBlock
              title={t('agents.loadFailed')}
              detail={errorDetailMessage(agents.error, t)}
              onRetry={() => void query.refetch()}
            />
          )
        ) : agents.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="agents-none">
            {t('agents.none')}
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="agents-list">
            {agents.data.map((agent) => (
              <li
                key={agent.agent_id}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm"
              >
                <span className="font-medium">{agent.name}</span>
                <span className="text-muted-foreground">{agent.host}</span>
                <span className="text-muted-foreground">
                  {agent.cores === 1 ? t('agents.oneCore') : t('agents.cores', { n: agent.cores })}
                </span>
                <AgentState agent={agent} />
                {agent.last_seen_at !== null && (
                  <span className="text-xs text-muted-foreground">
                    {t('agents.lastSeen', { time: new Date(agent.last_seen_at).toLocaleString(locale) })}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
