import type { ErrorResponse } from '@aqa/plan';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, ResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError, RateLimitedError, ValidationError } from '../errors';

const INTERNAL_ERROR: ErrorResponse = { detail: 'Internal server error', code: 'INTERNAL_ERROR' };

/** Fastify's own request errors, reworded for a person; others keep Fastify's message. */
const FASTIFY_REQUEST_ERRORS: Record<
  string,
  (error: FastifyError, request: FastifyRequest) => ErrorResponse
> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => ({
    detail: 'The request body is not valid JSON',
    code: 'INVALID_JSON',
    hint: 'Send a JSON document, or remove the Content-Type: application/json header.',
  }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ({
    detail: 'The request body is empty but its Content-Type is application/json',
    code: 'EMPTY_JSON_BODY',
  }),
  FST_ERR_CTP_BODY_TOO_LARGE: () => ({ detail: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_error, request) => ({
    detail: `Unsupported Content-Type: ${request.headers['content-type'] ?? '(none)'}`,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    hint: 'Send JSON with Content-Type: application/json.',
  }),
};

/**
 * The one place errors become answers: `{ detail, code, hint?, errors? }` with the right status.
 * Errors we did not anticipate are logged with their stack and answered with a bare 500, so no
 * internals reach the client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendAppError(error, reply);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext ?? 'body';
      const fields: FieldError[] = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || context,
        message: issue.message ?? 'Invalid value',
      }));
      return sendAppError(new ValidationError(fields), reply);
    }

    if (error instanceof ResponseSerializationError) {
      request.log.error({ err: error, issues: error.cause.issues }, 'Response does not match its schema');
      return reply.code(500).send(INTERNAL_ERROR);
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const describe = FASTIFY_REQUEST_ERRORS[error.code];
      return reply
        .code(status)
        .send(describe ? describe(error, request) : { detail: error.message, code: error.code });
    }

    request.log.error({ err: error }, 'Unhandled error');
    return reply.code(500).send(INTERNAL_ERROR);
  });
}

function sendAppError(error: AppError, reply: FastifyReply): FastifyReply {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterS));
  const body: ErrorResponse = { detail: error.message, code: error.code };
  if (error.hint !== undefined) body.hint = error.hint;
  if (error instanceof ValidationError) body.errors = error.errors;
  return reply.code(error.statusCode).send(body);
}
