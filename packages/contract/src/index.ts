/*
 * @aqa/contract: the HTTP API written once (docs/contract.md). Browser-safe: zod and @aqa/plan,
 * @aqa/converters only.
 */
import { account } from './routes/account';
import { agents } from './routes/agents';
import { assistant } from './routes/assistant';
import { audit } from './routes/audit';
import { downloads } from './routes/downloads';
import { feedback } from './routes/feedback';
import { functional } from './routes/functional';
import { history } from './routes/history';
import { imports } from './routes/imports';
import { messages } from './routes/messages';
import { notifications } from './routes/notifications';
import { plans } from './routes/plans';
import { runs } from './routes/runs';
import { sso } from './routes/sso';
import { schedules } from './routes/schedules';
import { system } from './routes/system';
import { textCommands } from './routes/text-commands';
import { tokens } from './routes/tokens';
import { workspaces } from './routes/workspaces';

/** Every route of the API, by area. The server registers each one; clients call them with call(). */
export const contract = {
  account,
  agents,
  assistant,
  audit,
  downloads,
  feedback,
  functional,
  history,
  imports,
  messages,
  notifications,
  plans,
  runs,
  sso,
  schedules,
  system,
  textCommands,
  tokens,
  workspaces,
};

export * from './route';
export * from './call';
export * from './schemas/plan';
export * from './schemas/run';
export * from './schemas/functional';
export * from './schemas/history';
export * from './schemas/import';
export * from './schemas/notifications';
export { HealthResponseSchema } from './routes/system';
export { TextCommandResponseSchema } from './routes/text-commands';
