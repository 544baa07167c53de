import { contract, type NotificationChannelCreate } from '@aqa/contract';
import { call } from '@/lib/api';

/** POST /api/notification-channels (docs/adr/0032-notifications-out.md). */
export function createChannel(body: NotificationChannelCreate): Promise<{ id: string }> {
  return call(contract.notifications.create, { body });
}

export function deleteChannel(id: string): Promise<void> {
  return call(contract.notifications.remove, { params: { id } });
}

/** Queues a test notice; its attempts appear in the channel's log. */
export function testChannel(id: string): Promise<{ delivery_id: string }> {
  return call(contract.notifications.test, { params: { id } });
}

/** Which family a plan is of: a load plan (`plans`) or an API, script or UI plan (`functional_plans`). */
export type PlanFamily = 'load' | 'functional';

/** Replaces the channels a plan's runs are told on. */
export function setPlanChannels(
  family: PlanFamily,
  id: string,
  channelIds: string[],
): Promise<{ channel_ids: string[] }> {
  const route =
    family === 'load' ? contract.notifications.setLoadPlan : contract.notifications.setFunctionalPlan;
  return call(route, { params: { id }, body: { channel_ids: channelIds } });
}
