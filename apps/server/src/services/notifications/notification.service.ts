import { randomBytes } from 'node:crypto';
import {
  type DeliveryList,
  type NotificationChannelCreate,
  type NotificationChannelList,
  type NotificationEvent,
  type PlanChannels,
  NOTIFICATION_CHANNELS_PER_USER,
  NOTIFICATION_MESSAGES,
  NotificationChannelCreateSchema,
} from '@aqa/contract';
import type { TargetGuard } from '@aqa/engine';
import type { z } from 'zod';
import { type Clock, isoAt } from '../../clock';
import type { NotificationChannelRow } from '../../db/schema';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import type { NotificationRepository, PlanFamily } from '../../repositories/notification.repository';
import type { AccountUser } from '../account-user';
import { bodyFor, type Notice } from './notice-content';
import type { NotificationOutbox } from './outbox';

/** Deliveries the log answers per channel. */
const LOG_LENGTH = 100;

type ChannelInput = z.output<typeof NotificationChannelCreateSchema>;

/** A channel's type as stored; the contract's vocabulary. */
type ChannelType = NotificationChannel['type'];
type NotificationChannel = NotificationChannelList['channels'][number];
type LastDelivery = NonNullable<NotificationChannel['last_delivery']>;

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** A Slack or Teams hook's address is itself the credential: the list shows its origin and a cut path. */
function shownUrl(row: NotificationChannelRow): string {
  if (row.type !== 'slack' && row.type !== 'teams') return row.url;
  try {
    const url = new URL(row.url);
    return `${url.origin}${url.pathname.slice(0, 12)}…`;
  } catch {
    return '…';
  }
}

/**
 * The user's notification channels and each plan's choice of them (docs/adr/0032-notifications-out.md):
 * created (the address guarded like any request sent on the user's behalf, docs/adr/0015-target-guard.md),
 * listed with their last delivery, deleted, tested; another user's channel or plan is a 404.
 */
/** Who acts (the rows' author) and in which workspace (whose channels they are). */
type ChannelOwner = Pick<AccountUser, 'id' | 'workspaceId'>;

export class NotificationService {
  constructor(
    private readonly repo: NotificationRepository,
    private readonly outbox: NotificationOutbox,
    private readonly guard: TargetGuard,
    private readonly smtpConfigured: boolean,
    private readonly publicUrl: string,
    private readonly now: Clock,
  ) {}

  async create(user: ChannelOwner, input: NotificationChannelCreate): Promise<{ id: string }> {
    const body: ChannelInput = NotificationChannelCreateSchema.parse(input);
    if (body.type === 'email') {
      if (!this.smtpConfigured)
        throw new ValidationError([
          { field: 'type', message: 'type: e-mail channels need SMTP_URL set on the server' },
        ]);
    } else {
      if (!URL.canParse(body.url))
        throw new ValidationError([{ field: 'url', message: NOTIFICATION_MESSAGES.urlHttp }]);
      const decision = await this.guard.checkUrl(body.url);
      if (!decision.allowed) throw new ForbiddenError('TARGET_REFUSED', decision.reason);
    }
    const row: NotificationChannelRow = {
      id: newId('nch'),
      user_id: user.id,
      workspace_id: user.workspaceId,
      type: body.type,
      name: body.name === undefined || body.name === '' ? defaultName(body.type, body.url) : body.name,
      url: body.url,
      secret: body.secret ?? null,
      events: JSON.stringify([...new Set(body.events)]),
      created_at: isoAt(this.now()),
    };
    if (!(await this.repo.insertChannelWithinLimit(row, NOTIFICATION_CHANNELS_PER_USER)))
      throw new ConflictError('TOO_MANY_CHANNELS', NOTIFICATION_MESSAGES.tooMany);
    return { id: row.id };
  }

  async list(user: ChannelOwner): Promise<NotificationChannelList> {
    const rows = await this.repo.listChannels(user.workspaceId);
    const last = await this.repo.lastDeliveries(rows.map((row) => row.id));
    return {
      limit: NOTIFICATION_CHANNELS_PER_USER,
      channels: rows.map((row) => {
        const newest = last.get(row.id);
        return {
          id: row.id,
          type: row.type as ChannelType,
          name: row.name,
          url: shownUrl(row),
          secret_hint: row.secret === null ? null : `…${row.secret.slice(-4)}`,
          events: JSON.parse(row.events) as NotificationEvent[],
          created_at: row.created_at,
          last_delivery:
            newest === undefined
              ? null
              : {
                  status: newest.delivery.status as LastDelivery['status'],
                  event: newest.delivery.event as LastDelivery['event'],
                  at: newest.delivery.updated_at,
                  http_status: newest.attempt?.http_status ?? null,
                  answer: newest.attempt?.answer ?? null,
                },
        };
      }),
    };
  }

  async remove(user: ChannelOwner, id: string): Promise<void> {
    if (!(await this.repo.deleteChannel(user.workspaceId, id))) throw channelNotFound();
  }

  async deliveries(user: ChannelOwner, id: string): Promise<DeliveryList> {
    if ((await this.repo.findChannel(user.workspaceId, id)) === undefined) throw channelNotFound();
    const rows = await this.repo.listDeliveries(id, LOG_LENGTH);
    const attempts = await this.repo.attemptsOf(rows.map((row) => row.id));
    type D = DeliveryList['deliveries'][number];
    return {
      deliveries: rows.map((row) => ({
        id: row.id,
        run_id: row.run_id,
        event: row.event as D['event'],
        status: row.status as D['status'],
        attempts: attempts
          .filter((a) => a.delivery_id === row.id)
          .map((a) => ({
            attempt: a.attempt,
            status: a.status as D['attempts'][number]['status'],
            http_status: a.http_status,
            answer: a.answer,
            started_at: a.started_at,
            ended_at: a.ended_at,
          })),
        next_attempt_at: row.next_attempt_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
      })),
    };
  }

  /** Queues a test notice on the channel; its attempts appear in the log like any delivery's. */
  async test(user: ChannelOwner, id: string): Promise<{ delivery_id: string }> {
    const channel = await this.repo.findChannel(user.workspaceId, id);
    if (channel === undefined) throw channelNotFound();
    if (channel.type !== 'email') {
      const decision = await this.guard.checkUrl(channel.url);
      if (!decision.allowed) throw new ForbiddenError('TARGET_REFUSED', decision.reason);
    }
    const at = isoAt(this.now());
    const notice: Notice = {
      event: 'test',
      events: [],
      title: `AnybodyQA test notification for "${channel.name}"`,
      text: 'This channel works: runs of the plans that choose it will be told here.',
      url: `${this.publicUrl}/settings/notifications`,
      run: null,
      created_at: at,
    };
    const deliveryId = newId('ndl');
    await this.outbox.enqueue({
      id: deliveryId,
      user_id: user.id,
      workspace_id: user.workspaceId,
      channel_id: id,
      run_id: null,
      event: 'test',
      body: bodyFor(channel.type as ChannelType, notice),
      created_at: at,
    });
    return { delivery_id: deliveryId };
  }

  async planChannels(user: ChannelOwner, family: PlanFamily, planId: string): Promise<PlanChannels> {
    if (!(await this.repo.ownsPlan(user.workspaceId, family, planId))) throw planNotFound();
    return { channel_ids: await this.repo.planChannelIds(user.workspaceId, family, planId) };
  }

  async setPlanChannels(
    user: ChannelOwner,
    family: PlanFamily,
    planId: string,
    input: PlanChannels,
  ): Promise<PlanChannels> {
    if (!(await this.repo.ownsPlan(user.workspaceId, family, planId))) throw planNotFound();
    const ids = [...new Set(input.channel_ids)];
    const mine = new Set((await this.repo.listChannels(user.workspaceId)).map((row) => row.id));
    if (ids.some((id) => !mine.has(id)))
      throw new ValidationError([{ field: 'channel_ids', message: NOTIFICATION_MESSAGES.unknownChannels }]);
    await this.repo.setPlanChannels(user.workspaceId, user.id, family, planId, ids);
    return { channel_ids: await this.repo.planChannelIds(user.workspaceId, family, planId) };
  }
}

function defaultName(type: ChannelType, url: string): string {
  if (type === 'email') return url;
  try {
    return `${type} ${new URL(url).host}`;
  } catch {
    return type;
  }
}

function channelNotFound(): NotFoundError {
  return new NotFoundError('CHANNEL_NOT_FOUND', 'No such notification channel');
}

function planNotFound(): NotFoundError {
  return new NotFoundError('PLAN_NOT_FOUND', 'Plan not found');
}
