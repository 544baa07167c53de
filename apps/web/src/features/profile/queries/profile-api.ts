import { contract } from '@aqa/contract';
import type { PasswordChange, ProfileUpdate, User } from '@aqa/plan';
import { call } from '@/lib/api';

export async function updateMe(update: ProfileUpdate): Promise<User> {
  const answer = await call(contract.account.updateMe, { body: update });
  return answer.user;
}

export function changePassword(change: PasswordChange): Promise<void> {
  return call(contract.account.changePassword, { body: change });
}
