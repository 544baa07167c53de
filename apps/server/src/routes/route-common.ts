import { ErrorResponseSchema } from '@aqa/plan';
import type { FastifySchemaValidationError } from 'fastify';
import { ValidationError } from '../errors';

/** The error answers every signed-in, user-scoped call documents (all `{ detail, code, ... }`). */
export const SCOPED_ERRORS = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
} as const;

/** The same, for calls on one stored thing (a plan, a run) that may not be the user's. */
export const SCOPED_ERRORS_WITH_404 = { ...SCOPED_ERRORS, 404: ErrorResponseSchema } as const;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Plan bodies are deep, so `detail` names each field's path: "urls.0.url: Enter the URL". */
export function namedFieldErrors(issues: FastifySchemaValidationError[], dataVar: string): Error {
  return new ValidationError(
    issues.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || dataVar,
      message: issue.message ?? 'Invalid value',
    })),
    { namesFields: true },
  );
}
