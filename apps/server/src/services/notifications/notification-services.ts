import type { TargetGuard } from '@aqa/engine';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { NotificationRepository } from '../../repositories/notification.repository';
import type { RunNotices } from '../message.service';
import { NotificationService } from './notification.service';
import { NotificationOutbox } from './outbox';
import { NotifyingRunNotices } from './run-notifier';
import { NotificationSender } from './sender';

export interface NotificationServices {
  /** The channels, their log and each plan's choice (the routes'). */
  channels: NotificationService;
  /** What the run stores tell of an ended run: the owner's message, then the notifications out. */
  notices: RunNotices;
}

/**
 * Notifications out (docs/adr/0032-notifications-out.md), wired once: the outbox resumes what a stopped
 * process left to send, and stops (its attempts made) when the server closes.
 */
export function createNotificationServices(
  app: FastifyInstance,
  db: Db,
  config: Config,
  guard: TargetGuard,
  now: Clock,
  messages: RunNotices,
): NotificationServices {
  const repo = new NotificationRepository(db);
  const sender = new NotificationSender(guard, config.smtp);
  const outbox = new NotificationOutbox(repo, sender, config.notifyRetryDelaysMs, now, app.log);
  // Before the database closes (an onClose hook added earlier runs later).
  app.addHook('preClose', async () => {
    await outbox.close();
    await sender.close();
  });
  app.addHook('onReady', async () => {
    const resumed = await outbox.resume();
    if (resumed > 0) app.log.info({ deliveries: resumed }, 'Notifications left to send resumed');
  });
  return {
    channels: new NotificationService(
      repo,
      outbox,
      guard,
      config.smtp.url !== undefined,
      config.publicUrl,
      now,
    ),
    notices: new NotifyingRunNotices(messages, repo, outbox, config.publicUrl, now, app.log),
  };
}
