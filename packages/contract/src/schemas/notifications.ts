import { oneLine } from '@aqa/plan';
import { z } from 'zod';

/*
 * Notifications out (docs/adr/0032-notifications-out.md): a user's channels, the events they are told
 * of, the per-plan choice of channels and each channel's delivery log, as the API reads and answers them.
 */

export const NOTIFICATION_CHANNEL_TYPES = ['webhook', 'slack', 'teams', 'email'] as const;
export type NotificationChannelType = (typeof NOTIFICATION_CHANNEL_TYPES)[number];

/** What a run is told for: it failed, a threshold or validation failed, or it passed after one that did not. */
export const NOTIFICATION_EVENTS = ['run_failed', 'threshold_failed', 'recovered'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** A delivery's event: one of the above, or `test` for POST /api/notification-channels/{id}/test. */
export const DELIVERY_EVENTS = [...NOTIFICATION_EVENTS, 'test'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'retrying', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const NOTIFICATION_CHANNELS_PER_USER = 50;
export const NOTIFICATION_SECRET_MIN = 16;
export const NOTIFICATION_SECRET_MAX = 256;
const URL_MAX = 2000;
const NAME_MAX = 100;

export const NOTIFICATION_MESSAGES = {
  type: `type: must be one of ${NOTIFICATION_CHANNEL_TYPES.join(', ')}`,
  urlRequired: 'url: the address to send to is required',
  urlTooLong: `url: at most ${URL_MAX} characters`,
  urlHttp: 'url: must be an http:// or https:// address',
  urlEmail: 'url: an email channel takes one e-mail address (name@example.com)',
  secretLength: `secret: ${NOTIFICATION_SECRET_MIN}–${NOTIFICATION_SECRET_MAX} characters`,
  secretOnlyWebhook: 'secret: only a webhook channel signs its body; leave it out for slack, teams and email',
  events: `events: choose at least one of ${NOTIFICATION_EVENTS.join(', ')}`,
  event: `events: each must be one of ${NOTIFICATION_EVENTS.join(', ')}`,
  nameTooLong: `name: at most ${NAME_MAX} characters`,
  tooMany: `You have ${NOTIFICATION_CHANNELS_PER_USER} notification channels, the most allowed. Delete one first.`,
  unknownChannels: 'channel_ids: names a channel you do not have',
} as const;

const EMAIL = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/** An http(s) address with a host; the server's URL parser and the target guard read it further. */
const HTTP_URL = /^https?:\/\/[^\s/?#@]*@?[^\s/?#@]+(?:[/?#]\S*)?$/i;

function isHttpUrl(value: string): boolean {
  return HTTP_URL.test(value);
}

/** POST /api/notification-channels body. */
export const NotificationChannelCreateSchema = z
  .object({
    type: z.enum(NOTIFICATION_CHANNEL_TYPES, { error: () => NOTIFICATION_MESSAGES.type }),
    url: oneLine('url', NOTIFICATION_MESSAGES.urlRequired)
      .trim()
      .min(1, NOTIFICATION_MESSAGES.urlRequired)
      .max(URL_MAX, NOTIFICATION_MESSAGES.urlTooLong)
      .describe('The receiver: an http(s) address for webhook, slack and teams; an e-mail address for email'),
    secret: oneLine('secret')
      .min(NOTIFICATION_SECRET_MIN, NOTIFICATION_MESSAGES.secretLength)
      .max(NOTIFICATION_SECRET_MAX, NOTIFICATION_MESSAGES.secretLength)
      .optional()
      .describe(
        'A webhook signs each body with it: X-AQA-Signature: sha256=<hex HMAC-SHA256>. Never answered back whole',
      ),
    events: z
      .array(z.enum(NOTIFICATION_EVENTS, { error: () => NOTIFICATION_MESSAGES.event }), {
        error: () => NOTIFICATION_MESSAGES.events,
      })
      .min(1, NOTIFICATION_MESSAGES.events)
      .max(NOTIFICATION_EVENTS.length, NOTIFICATION_MESSAGES.events),
    name: oneLine('name').trim().max(NAME_MAX, NOTIFICATION_MESSAGES.nameTooLong).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'email') {
      if (!EMAIL.test(body.url))
        ctx.addIssue({ code: 'custom', path: ['url'], message: NOTIFICATION_MESSAGES.urlEmail });
    } else if (!isHttpUrl(body.url)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: NOTIFICATION_MESSAGES.urlHttp });
    }
    if (body.secret !== undefined && body.type !== 'webhook')
      ctx.addIssue({ code: 'custom', path: ['secret'], message: NOTIFICATION_MESSAGES.secretOnlyWebhook });
  });
export type NotificationChannelCreate = z.input<typeof NotificationChannelCreateSchema>;

export const NotificationChannelCreatedSchema = z.object({ id: z.string() });

/** A delivery's last attempt as the channel list shows it. */
export const LastDeliverySchema = z.object({
  status: z.enum(DELIVERY_STATUSES),
  event: z.enum(DELIVERY_EVENTS),
  at: z.string().describe('ISO time of its last change'),
  http_status: z.number().int().nullable(),
  answer: z.string().nullable(),
});

export const NotificationChannelSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_CHANNEL_TYPES),
  name: z.string(),
  url: z.string().describe("The receiver's address; a Slack or Teams hook's path is shown cut short"),
  secret_hint: z.string().nullable().describe('The last 4 characters of a webhook secret, or null'),
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
  created_at: z.string(),
  last_delivery: LastDeliverySchema.nullable(),
});
export type NotificationChannel = z.infer<typeof NotificationChannelSchema>;

export const NotificationChannelListSchema = z.object({
  channels: z.array(NotificationChannelSchema),
  limit: z.number().int(),
});
export type NotificationChannelList = z.infer<typeof NotificationChannelListSchema>;

export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  status: z.enum(['sent', 'retrying', 'failed']),
  http_status: z.number().int().nullable(),
  answer: z.string().describe("The start of the receiver's answer, the SMTP reply, or why none came"),
  started_at: z.string(),
  ended_at: z.string(),
});

export const DeliverySchema = z.object({
  id: z.string(),
  run_id: z.string().nullable(),
  event: z.enum(DELIVERY_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(DeliveryAttemptSchema),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const DeliveryListSchema = z.object({ deliveries: z.array(DeliverySchema) });
export type DeliveryList = z.infer<typeof DeliveryListSchema>;

/** The test notice's delivery, as queued (its attempts follow in the log). */
export const TestDeliverySchema = z.object({ delivery_id: z.string() });

/** PUT /api/plans/{id}/notifications and its functional twin: the channels the plan's runs are told on. */
export const PlanChannelsSchema = z.object({
  channel_ids: z
    .array(z.string().min(1).max(200), { error: () => 'channel_ids: a list of channel ids' })
    .max(NOTIFICATION_CHANNELS_PER_USER, 'channel_ids: too many channels'),
});
export type PlanChannels = z.infer<typeof PlanChannelsSchema>;
