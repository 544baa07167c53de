import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../../clock';
import type { NotificationChannelRow, NotificationDeliveryRow } from '../../db/schema';
import type { NotificationRepository } from '../../repositories/notification.repository';
import type { NotificationChannelType } from '@aqa/contract';
import type { NotificationSender } from './sender';

/**
 * The outbox (docs/adr/0032-notifications-out.md §4): each delivery is stored, with the exact body to
 * send, before its first attempt; each attempt is claimed in the database (so two processes never make
 * the same attempt), logged with the receiver's answer, and followed by the next after
 * `retryDelaysMs[n-1]` until one succeeds or the last is made (1 + retryDelaysMs.length attempts). A
 * start-up resumes what is left pending or retrying, at its stored time.
 */
export class NotificationOutbox {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly going = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly repo: NotificationRepository,
    private readonly sender: NotificationSender,
    private readonly retryDelaysMs: readonly number[],
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** Stores a delivery and makes its first attempt at once. */
  async enqueue(
    delivery: Omit<NotificationDeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'updated_at'>,
  ): Promise<void> {
    const at = delivery.created_at;
    await this.repo.insertDelivery({
      ...delivery,
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      updated_at: at,
    });
    this.schedule(delivery.id, 0);
  }

  /** Schedules every delivery a stopped process left to send. */
  async resume(): Promise<number> {
    const left = await this.repo.unsentDeliveries();
    const now = this.now();
    for (const row of left) {
      const due = row.next_attempt_at === null ? now : Date.parse(row.next_attempt_at);
      this.schedule(row.id, Math.max(0, due - now));
    }
    return left.length;
  }

  /** Stops scheduling and waits for the attempts being made; what is left is resumed at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.going]);
  }

  private schedule(id: string, delayMs: number): void {
    if (this.closed) return;
    const old = this.timers.get(id);
    if (old !== undefined) clearTimeout(old);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      const attempt = this.attempt(id).catch((err: unknown) => {
        this.log.error({ err, deliveryId: id }, 'A notification attempt could not be made');
      });
      this.going.add(attempt);
      void attempt.finally(() => this.going.delete(attempt));
    }, delayMs);
    this.timers.set(id, timer);
  }

  private async attempt(id: string): Promise<void> {
    const delivery = await this.repo.findDelivery(id);
    if (delivery === undefined || (delivery.status !== 'pending' && delivery.status !== 'retrying')) return;
    const channel = await this.repo.findChannel(delivery.workspace_id, delivery.channel_id);
    if (channel === undefined) return;
    const number = delivery.attempts + 1;
    const startedAt = this.now();
    if (!(await this.repo.claimAttempt(id, number, isoAt(startedAt)))) return;
    const outcome = await this.sender.send(targetOf(channel), delivery.body);
    const endedAt = this.now();
    const last = number >= this.maxAttempts || !outcome.retriable;
    const status = outcome.ok ? 'sent' : last ? 'failed' : 'retrying';
    const delay = this.retryDelaysMs[number - 1] ?? 0;
    const next = status === 'retrying' ? isoAt(endedAt + delay) : null;
    await this.repo.recordAttempt(
      {
        delivery_id: id,
        attempt: number,
        status,
        http_status: outcome.httpStatus,
        answer: outcome.answer,
        started_at: isoAt(startedAt),
        ended_at: isoAt(endedAt),
      },
      status,
      next,
    );
    if (status === 'failed') {
      this.log.warn(
        { deliveryId: id, channelId: channel.id, attempts: number, answer: outcome.answer },
        'A notification could not be delivered',
      );
    }
    if (status === 'retrying') this.schedule(id, delay);
  }
}

function targetOf(channel: NotificationChannelRow) {
  return { type: channel.type as NotificationChannelType, url: channel.url, secret: channel.secret };
}
