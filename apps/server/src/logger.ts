import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config';

/** Where log lines go instead of stdout (tests capture them). */
export interface LogDestination {
  write(line: string): void;
}

/**
 * Pino options. Secrets are censored wherever a log line could carry them: the Authorization
 * header, and any password, hash or token field of a logged object.
 */
export function loggerOptions(level: LogLevel, stream?: LogDestination): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'body.password',
        'body.confirmPassword',
        'body.currentPassword',
        'body.newPassword',
        '*.password',
        '*.confirmPassword',
        '*.currentPassword',
        '*.newPassword',
        '*.password_hash',
        '*.token',
        '*.token_hash',
      ],
      censor: '[redacted]',
    },
  };
}
