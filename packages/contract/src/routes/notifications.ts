import { ErrorResponseSchema } from '@aqa/plan';
import {
  defineRoute,
  IdParamsSchema,
  NoContentSchema as NoContent,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
} from '../route';
import {
  DeliveryListSchema,
  NotificationChannelCreatedSchema,
  NotificationChannelCreateSchema,
  NotificationChannelListSchema,
  PlanChannelsSchema,
  TestDeliverySchema,
} from '../schemas/notifications';

const tags = ['notifications'];
const GUARDED =
  'A webhook, Slack or Teams address the target guard refuses (docs/adr/0015-target-guard.md) is refused here (403 TARGET_REFUSED) and again at each delivery.';

/** Notifications out (docs/adr/0032-notifications-out.md): the user's channels and each plan's choice of them. */
export const notifications = {
  create: defineRoute({
    method: 'POST',
    url: '/api/notification-channels',
    schema: {
      tags,
      summary: 'Add a notification channel (webhook, Slack, Microsoft Teams or e-mail)',
      description: GUARDED,
      body: NotificationChannelCreateSchema,
      response: {
        201: NotificationChannelCreatedSchema,
        ...SCOPED_ERRORS,
        409: ErrorResponseSchema.describe('The user has the most channels allowed (TOO_MANY_CHANNELS)'),
      },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/notification-channels',
    schema: {
      tags,
      summary: "The user's notification channels, newest first, each with its last delivery's state",
      response: { 200: NotificationChannelListSchema, ...SCOPED_ERRORS },
    },
  }),
  remove: defineRoute({
    method: 'DELETE',
    url: '/api/notification-channels/:id',
    schema: {
      tags,
      summary: 'Delete a channel, its delivery log and its place in every plan',
      description: "Another user's channel answers 404 like an unknown one.",
      params: IdParamsSchema,
      response: { 204: NoContent, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  deliveries: defineRoute({
    method: 'GET',
    url: '/api/notification-channels/:id/deliveries',
    schema: {
      tags,
      summary:
        "A channel's delivery log, newest first (its last 100 deliveries), each attempt with the receiver's answer",
      params: IdParamsSchema,
      response: { 200: DeliveryListSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  test: defineRoute({
    method: 'POST',
    url: '/api/notification-channels/:id/test',
    schema: {
      tags,
      summary: 'Send a test notification on the channel; its attempts appear in the delivery log',
      description: GUARDED,
      params: IdParamsSchema,
      response: { 202: TestDeliverySchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  loadPlan: defineRoute({
    method: 'GET',
    url: '/api/plans/:id/notifications',
    schema: {
      tags,
      summary: "The channels a load plan's runs are told on",
      params: IdParamsSchema,
      response: { 200: PlanChannelsSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  setLoadPlan: defineRoute({
    method: 'PUT',
    url: '/api/plans/:id/notifications',
    schema: {
      tags,
      summary:
        "Choose the channels a load plan's runs are told on (the list replaces the last one; [] for none)",
      params: IdParamsSchema,
      body: PlanChannelsSchema,
      response: { 200: PlanChannelsSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  functionalPlan: defineRoute({
    method: 'GET',
    url: '/api/functional/plans/:id/notifications',
    schema: {
      tags,
      summary: "The channels an API, script or UI plan's runs are told on",
      params: IdParamsSchema,
      response: { 200: PlanChannelsSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  setFunctionalPlan: defineRoute({
    method: 'PUT',
    url: '/api/functional/plans/:id/notifications',
    schema: {
      tags,
      summary:
        "Choose the channels an API, script or UI plan's runs are told on (the list replaces the last one)",
      params: IdParamsSchema,
      body: PlanChannelsSchema,
      response: { 200: PlanChannelsSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
};
