import { randomBytes } from 'node:crypto';
import {
  type FunctionalStatus,
  type FunctionalSummary,
  type Message,
  type MessageList,
  MESSAGES_DEFAULT_LIMIT,
  type MessageKind,
  type MessageTestType,
  type Phrase,
  type UnreadCount,
} from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../clock';
import type { MessageRow } from '../db/schema';
import type { MessageRepository } from '../repositories/message.repository';
import type { AccountUser } from './account-user';
import { functionalRunMessage, loadRunMessage, type MessageText } from './message-text';
import type { RunRecord } from './runs/run-model';

/** A functional or UI run as stored when it ended, as the functional run service knows it. */
export interface FunctionalRunEnding {
  id: string;
  userId: string;
  name: string;
  ui: boolean;
  status: Exclude<FunctionalStatus, 'running'>;
  summary: FunctionalSummary;
  error: string | null;
  /** `error` as a phrase (docs/adr/0025-phrases.md); null or absent when it has none. */
  error_phrase?: Phrase | null;
}

/**
 * What the run services tell when a run has ended and been stored. Never rejects: a message that cannot
 * be written is logged, and the run it is about is stored all the same.
 */
export interface RunNotices {
  loadRunEnded(run: RunRecord): Promise<void>;
  functionalRunEnded(run: FunctionalRunEnding): Promise<void>;
}

function rowToMessage(row: MessageRow): Message {
  const runId = row.run_id ?? row.functional_run_id ?? '';
  return {
    id: row.id,
    kind: row.kind as MessageKind,
    test_type: row.test_type as MessageTestType,
    name: row.name,
    title: row.title,
    body: row.body,
    ...(row.body_phrases === null ? {} : { body_phrases: JSON.parse(row.body_phrases) as Phrase[] }),
    link: row.run_id === null ? `/functional-test-result/${runId}` : `/test-result/${runId}`,
    run_id: runId,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}

/**
 * Messages (docs/reference/02-running.md §2 "Messages"): one per run of the user's that ends —
 * completed, failed, stopped or interrupted (load runs a restart left unfinished too) — or breaks one
 * of its plan's thresholds, with the run's measured figures and a link to its result. Each user reads
 * and marks only their own.
 */
export class MessageService implements RunNotices {
  constructor(
    private readonly messages: MessageRepository,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async list(user: AccountUser, limit = MESSAGES_DEFAULT_LIMIT): Promise<MessageList> {
    const rows = limit === 0 ? [] : await this.messages.listForUser(user.id, limit);
    return { messages: rows.map(rowToMessage), unread: await this.messages.unreadCount(user.id) };
  }

  /** Marks the user's messages read (those named, or all); another user's ids change nothing. */
  async markRead(user: AccountUser, ids?: readonly string[]): Promise<UnreadCount> {
    await this.messages.markRead(user.id, isoAt(this.now()), ids);
    return { unread: await this.messages.unreadCount(user.id) };
  }

  async loadRunEnded(run: RunRecord): Promise<void> {
    if (run.status === 'running' || run.status === 'processing') return;
    const status = run.status;
    await this.store(run.user_id, { run_id: run.id, functional_run_id: null }, () =>
      loadRunMessage({
        name: run.plan_name,
        status,
        summary: run.summary,
        error: run.error,
        error_phrase: run.error_phrase,
        thresholds: run.config.plan.thresholds ?? [],
      }),
    );
  }

  async functionalRunEnded(run: FunctionalRunEnding): Promise<void> {
    await this.store(run.userId, { run_id: null, functional_run_id: run.id }, () =>
      functionalRunMessage(run),
    );
  }

  private async store(
    userId: string,
    about: { run_id: string | null; functional_run_id: string | null },
    compose: () => MessageText,
  ): Promise<void> {
    const runId = about.run_id ?? about.functional_run_id;
    try {
      const { body_phrases: phrases, ...text } = compose();
      await this.messages.insert({
        id: `msg_${randomBytes(12).toString('base64url')}`,
        user_id: userId,
        ...about,
        ...text,
        body_phrases: JSON.stringify(phrases),
        created_at: isoAt(this.now()),
        read_at: null,
      });
    } catch (err) {
      // The run is stored already; a lost message is not worth failing it over.
      this.log.error({ err, runId }, 'Could not store the message about an ended run');
    }
  }
}
