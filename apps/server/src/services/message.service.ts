import { randomBytes } from 'node:crypto';
import {
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
import type { RunTable } from '../repositories/server-instance.repository';
import type { AccountUser } from './account-user';
import type { EndedFunctionalRun, MessageText } from './message-text';

/** A functional or UI run as stored when it ended, as the functional run service knows it. */
export interface FunctionalRunEnding extends EndedFunctionalRun {
  id: string;
  userId: string;
  workspaceId: string;
}

/** The run a message is about: its table, its id, who started it and whose it is. */
export interface EndedRunRef {
  table: RunTable;
  id: string;
  userId: string;
  /** The workspace the run belongs to (docs/adr/0035-workspaces-and-roles.md). */
  workspaceId: string;
}

/**
 * What the run stores tell when a run has ended and been stored (docs/run-lifecycle.md §1). Never
 * rejects: a message that cannot be written (or worded) is logged, and the run it is about is stored all
 * the same.
 */
export interface RunNotices {
  /** Stores the run's owner's message, in the words `compose` answers (its kind's adapter's). */
  runEnded(run: EndedRunRef, compose: () => MessageText): Promise<void>;
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
 * of its plan's thresholds, with the run's measured figures and a link to its result. Every member of the run's
 * workspace reads
 * and marks only their own.
 */
export class MessageService implements RunNotices {
  constructor(
    private readonly messages: MessageRepository,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async list(user: AccountUser, limit = MESSAGES_DEFAULT_LIMIT): Promise<MessageList> {
    const rows = limit === 0 ? [] : await this.messages.list(user.workspaceId, user.id, limit);
    return {
      messages: rows.map(rowToMessage),
      unread: await this.messages.unreadCount(user.workspaceId, user.id),
    };
  }

  /** Marks the workspace's messages read for the user (those named, or all); other ids change nothing. */
  async markRead(user: AccountUser, ids?: readonly string[]): Promise<UnreadCount> {
    await this.messages.markRead(user.workspaceId, user.id, isoAt(this.now()), ids);
    return { unread: await this.messages.unreadCount(user.workspaceId, user.id) };
  }

  async runEnded(
    { table, id: runId, userId, workspaceId }: EndedRunRef,
    compose: () => MessageText,
  ): Promise<void> {
    // A message links to a load run's row or to an API, script or UI run's.
    const about =
      table === 'runs'
        ? { run_id: runId, functional_run_id: null }
        : { run_id: null, functional_run_id: runId };
    try {
      const { body_phrases: phrases, ...text } = compose();
      await this.messages.insert({
        id: `msg_${randomBytes(12).toString('base64url')}`,
        user_id: userId,
        workspace_id: workspaceId,
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
