import type { ErrorResponse } from '@aqa/plan';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, ResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError, RateLimitedError, ValidationError } from '../errors';

const INTERNAL_ERROR: ErrorResponse = { detail: 'Internal server error', code: 'INTERNAL_ERROR' };

/** Bytes in MB as a person reads them: 28, 1.5. */
function megabytes(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}

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
  FST_ERR_CTP_BODY_TOO_LARGE: (_error, request) => ({
    detail: 'The request body is too large',
    code: 'PAYLOAD_TOO_LARGE',
    hint: `This call takes a body of at most ${megabytes(request.routeOptions.bodyLimit)} MB.`,
  }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_error, request) => ({
    detail: `Unsupported Content-Type: ${request.headers['content-type'] ?? '(none)'}`,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    hint: 'Send JSON with Content-Type: application/json.',
  }),
};

/**
 * What the multipart parser (busboy, under @fastify/multipart) throws for a body that is not well-formed
 * multipart/form-data. They are plain Errors with no code or status, known only by their words; each is
 * the client's mistake, so a 400 saying what is wrong (docs/design.md §11 "Bad input").
 */
const MALFORMED_MULTIPART: { match: RegExp; detail: string }[] = [
  {
    match: /^Multipart: Boundary not found$|^Boundary required$|^The needle cannot be an empty/,
    detail: 'The upload is multipart/form-data but its Content-Type names no boundary',
  },
  {
    match: /^The needle cannot have a length bigger than/,
    detail: "The upload's multipart boundary is longer than the 70 characters multipart/form-data allows",
  },
  {
    match: /unexpected end of multipart data$/i,
    detail: 'The upload ends part-way through: the multipart body stops before its closing boundary',
  },
];

const MULTIPART_HINT =
  'Send the form as a browser or curl -F writes it: Content-Type: multipart/form-data; boundary=…, each part opened by --boundary, the body closed by --boundary--.';

/** Fastify's and @fastify/multipart's own request errors, reworded for a person. */
const MULTIPART_REQUEST_ERRORS: Record<string, ErrorResponse> = {
  FST_PROTO_VIOLATION: {
    detail:
      'A part of the upload is named after a JavaScript property (such as __proto__), which is not allowed',
    code: 'MALFORMED_MULTIPART',
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    detail: 'A field of the upload says it is application/json but is not valid JSON',
    code: 'MALFORMED_MULTIPART',
  },
  FST_MP_PREMATURE_CLOSE: {
    detail: 'The upload was closed before its multipart body was fully sent',
    code: 'MALFORMED_MULTIPART',
  },
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

    const multipart = error.statusCode === undefined ? malformedMultipart(error) : undefined;
    if (multipart) return reply.code(400).send(multipart);

    const status = error.statusCode ?? 500;
    const known = MULTIPART_REQUEST_ERRORS[error.code];
    if (known && status >= 400 && status < 500) return reply.code(400).send(known);
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

function malformedMultipart(error: Error): ErrorResponse | undefined {
  const known = MALFORMED_MULTIPART.find(({ match }) => match.test(error.message));
  return known && { detail: known.detail, code: 'MALFORMED_MULTIPART', hint: MULTIPART_HINT };
}

/**
 * Throws the multipart parser's own "no boundary" error for a Content-Type whose boundary is empty
 * ("boundary="), which the parser would read as an empty form: answered like a missing boundary.
 */
export function assertMultipartBoundary(contentType: string | undefined): void {
  const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  if ((boundary?.[1] ?? boundary?.[2] ?? '') === '') throw new Error('Multipart: Boundary not found');
}
