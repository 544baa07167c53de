import { contract } from '@aqa/contract';
import type { Schedule, ScheduleCreate, ScheduleUpdate } from '@aqa/plan';
import { call } from '@/lib/api';

/** POST /api/schedules. */
export function createSchedule(body: ScheduleCreate): Promise<Schedule> {
  return call(contract.schedules.create, { body });
}

/** PUT /api/schedules/:id: turn it off and on, or change when it runs. */
export function updateSchedule(id: string, body: ScheduleUpdate): Promise<Schedule> {
  return call(contract.schedules.update, { params: { id }, body });
}

export function deleteSchedule(id: string): Promise<void> {
  return call(contract.schedules.remove, { params: { id } });
}
