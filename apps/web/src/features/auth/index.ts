/**
 * What other features may use of the auth feature (the lint rule of eslint.config.js lets them import
 * `@/features/auth` and nothing deeper). The sign-in and registration screens are mounted by the router.
 */
export { getSpeechRecognition, type SpeechRecognitionLike } from './hooks/useVoiceCommand';
export { useCurrentUser } from './hooks/useCurrentUser';
