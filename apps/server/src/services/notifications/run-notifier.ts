import { TEAM_WORKSPACE_PREFIX, WORKSPACE_QUERY } from '@aqa/plan';
import type { NotificationChannelType, NotificationEvent } from '@aqa/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../../clock';
import type { NotificationChannelRow } from '../../db/schema';
import type { NotificationRepository, RunFacts } from '../../repositories/notification.repository';
import type { EndedRunRef, RunNotices } from '../message.service';
import type { MessageText } from '../message-text';
import { bodyFor, type Notice } from './notice-content';
import { newId } from './notification.service';
import type { NotificationOutbox } from './outbox';
import { eventsOf } from './run-events';

/** The result page of a run, as the run's message links it (services/message.service.ts). */
function resultPath(table: EndedRunRef['table'], id: string): string {
  return table === 'runs' ? `/test-result/${id}` : `/functional-test-result/${id}`;
}

function parsedSummary(summary: string | null): unknown {
  if (summary === null) return null;
  try {
    return JSON.parse(summary) as unknown;
  } catch {
    return null;
  }
}

/**
 * A second receiver of the run-ended notice (docs/run-lifecycle.md §1 step 8): after the owner's message
 * is stored by `messages`, the run's events are judged and one delivery per channel chosen for its plan
 * and subscribed to one of them is put in the outbox (docs/adr/0032-notifications-out.md §2). Never
 * rejects: the run is stored already.
 */
export class NotifyingRunNotices implements RunNotices {
  constructor(
    private readonly messages: RunNotices,
    private readonly repo: NotificationRepository,
    private readonly outbox: NotificationOutbox,
    private readonly publicUrl: string,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async runEnded(run: EndedRunRef, compose: () => MessageText): Promise<void> {
    await this.messages.runEnded(run, compose);
    try {
      await this.notify(run, compose);
    } catch (err) {
      this.log.error({ err, runId: run.id }, 'Could not queue the notifications of an ended run');
    }
  }

  private async notify(run: EndedRunRef, compose: () => MessageText): Promise<void> {
    const facts = await this.repo.runFacts(run.table, run.workspaceId, run.id);
    if (facts?.planId === null || facts === undefined) return;
    const family = run.table === 'runs' ? 'load' : 'functional';
    // The plan's channels and the channels of the schedule that started the run, each once.
    const byId = new Map<string, NotificationChannelRow>();
    for (const channel of [
      ...(await this.repo.planChannels(run.workspaceId, family, facts.planId)),
      ...(await this.repo.scheduleChannels(run.workspaceId, run.id)),
    ])
      byId.set(channel.id, channel);
    const channels = [...byId.values()];
    if (channels.length === 0) return;
    const text = compose();
    const planId = facts.planId;
    const events = await eventsOf({ ...facts, messageKind: text.kind }, async () => {
      const earlier = await this.repo.earlierRun(run.table, run.workspaceId, planId, facts);
      return earlier === undefined ? undefined : { ...earlier, kind: facts.kind };
    });
    if (events.length === 0) return;
    const at = isoAt(this.now());
    for (const channel of channels) {
      const wanted = JSON.parse(channel.events) as NotificationEvent[];
      const event = events.find((e) => wanted.includes(e));
      if (event === undefined) continue;
      const notice = this.noticeOf(run, facts, text, event, events, at);
      await this.outbox.enqueue({
        id: newId('ndl'),
        user_id: run.userId,
        workspace_id: run.workspaceId,
        channel_id: channel.id,
        run_id: run.id,
        event,
        body: bodyFor(channel.type as NotificationChannelType, notice),
        created_at: at,
      });
    }
  }

  private noticeOf(
    run: EndedRunRef,
    facts: RunFacts,
    text: MessageText,
    event: NotificationEvent,
    events: NotificationEvent[],
    at: string,
  ): Notice {
    // A team workspace's run opens in that workspace (docs/adr/0035-workspaces-and-roles.md): the web app
    // switches to the workspace the link names.
    const inWorkspace = !run.workspaceId.startsWith(TEAM_WORKSPACE_PREFIX)
      ? ''
      : `?${WORKSPACE_QUERY}=${encodeURIComponent(run.workspaceId)}`;
    const url = `${this.publicUrl}${resultPath(run.table, run.id)}${inWorkspace}`;
    return {
      event,
      events,
      title: event === 'recovered' ? `${text.name} recovered: ${text.title}` : text.title,
      text: text.body,
      url,
      run: {
        id: run.id,
        kind: facts.kind,
        plan_id: facts.planId,
        plan_name: text.name,
        status: facts.status,
        summary: parsedSummary(facts.summary),
        summary_text: text.body,
        started_at: facts.startedAt,
        ended_at: facts.endedAt,
        url,
      },
      created_at: at,
    };
  }
}
