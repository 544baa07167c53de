import type { PasswordChange, ProfileUpdate, User } from '@aqa/plan';
import { api } from '@/lib/api';

export { fetchCurrentUser as fetchMe } from '@/features/auth';

export async function updateMe(update: ProfileUpdate): Promise<User> {
  const answer = await api.put<{ user: User }>('/me', update);
  return answer.user;
}

export function changePassword(change: PasswordChange): Promise<void> {
  return api.post<void>('/me/password', change);
}
