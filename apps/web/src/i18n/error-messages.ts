import {
  INVITE_MESSAGES,
  LOGIN_INVISIBLE_CHARACTERS,
  WORKSPACE_MESSAGES,
  MIN_PASSWORD_LENGTH,
  REGISTRATION_ERRORS,
  SIGN_UP_CLOSED_MESSAGE,
  type RegistrationErrorCode,
} from '@aqa/plan';
import { ApiError } from '@/lib/api';
import type { MessageKey } from './en';
import type { Translate } from './index';

export function registrationErrorText(code: RegistrationErrorCode, t: Translate): string {
  return t(`registrationError.${code}`, { min: MIN_PASSWORD_LENGTH });
}

/** The server writes its messages in English; the ones we know are shown in the active language. */
const KNOWN_SERVER_MESSAGES: Record<string, MessageKey> = {
  'Invalid username or password': 'serverMessage.invalidCredentials',
  'An account with this email already exists': 'serverMessage.emailTaken',
  'Current password is incorrect': 'serverMessage.currentPasswordIncorrect',
  'Current password is required': 'serverMessage.currentPasswordRequired',
  [SIGN_UP_CLOSED_MESSAGE]: 'serverMessage.signUpClosed',
  [LOGIN_INVISIBLE_CHARACTERS]: 'serverMessage.loginInvisibleCharacters',
  // Workspaces and roles (docs/adr/0035-workspaces-and-roles.md).
  [WORKSPACE_MESSAGES.notFound]: 'serverMessage.workspaceNotFound',
  [WORKSPACE_MESSAGES.noSuchAccount]: 'serverMessage.workspaceNoSuchAccount',
  [WORKSPACE_MESSAGES.alreadyMember]: 'serverMessage.workspaceAlreadyMember',
  [WORKSPACE_MESSAGES.lastOwner]: 'serverMessage.workspaceLastOwner',
  [WORKSPACE_MESSAGES.personalIsYours]: 'serverMessage.workspacePersonal',
  [WORKSPACE_MESSAGES.roleRequired('viewer', 'editor')]: 'serverMessage.workspaceViewerMayNot',
  [WORKSPACE_MESSAGES.roleRequired('viewer', 'owner')]: 'serverMessage.workspaceOwnerOnlyViewer',
  [WORKSPACE_MESSAGES.roleRequired('editor', 'owner')]: 'serverMessage.workspaceOwnerOnlyEditor',
  [INVITE_MESSAGES.notFound]: 'serverMessage.inviteNotFound',
  [INVITE_MESSAGES.expired]: 'serverMessage.inviteExpired',
  [INVITE_MESSAGES.alreadyMember]: 'serverMessage.inviteAlreadyMember',
  ...Object.fromEntries(
    (Object.keys(REGISTRATION_ERRORS) as RegistrationErrorCode[]).map((code) => [
      REGISTRATION_ERRORS[code],
      `registrationError.${code}` as const,
    ]),
  ),
};

/** The registration code whose English text the server sent, if it is one of ours. */
export function registrationCodeOf(message: string): RegistrationErrorCode | undefined {
  return (Object.keys(REGISTRATION_ERRORS) as RegistrationErrorCode[]).find(
    (code) => REGISTRATION_ERRORS[code] === message,
  );
}

export function translateServerMessage(message: string, t: Translate): string {
  const key = KNOWN_SERVER_MESSAGES[message.trim()];
  return key ? t(key, { min: MIN_PASSWORD_LENGTH }) : message;
}

function isFailedFetch(error: unknown): boolean {
  return error instanceof TypeError && /fetch|network/i.test(error.message);
}

/**
 * The friendly messages of docs/reference/01-authoring.md §8, used in the sign-in and registration alerts: a failed fetch →
 * cannot connect; 400 → bad request; 404 → not found; 500 → server error; otherwise the message itself,
 * else "unknown error".
 */
export function friendlyErrorMessage(error: unknown, t: Translate): string {
  if (error instanceof ApiError) {
    if (error.kind === 'network') return t('error.network');
    if (error.kind === 'timeout') return t('error.timeout');
    if (error.status === 400) return t('error.badRequest');
    if (error.status === 404) return t('error.notFound');
    if (error.status === 500) return t('error.server');
    return error.message ? translateServerMessage(error.message, t) : t('error.unknown');
  }
  if (isFailedFetch(error)) return t('error.network');
  if (error instanceof Error && error.message) return translateServerMessage(error.message, t);
  return t('error.unknown');
}

/**
 * For inline messages next to a form: what the server said (translated when known), because there the
 * detail is more useful than the generic 400 text. Transport failures still get the friendly text.
 */
export function errorDetailMessage(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.kind === 'http' && !error.message.startsWith('HTTP ')) {
    return translateServerMessage(error.message, t);
  }
  return friendlyErrorMessage(error, t);
}
