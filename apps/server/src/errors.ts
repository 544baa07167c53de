/** One problem with one input field; `field` is the dotted path ("email", "urls.0.url"). */
export interface FieldError {
  field: string;
  message: string;
}

interface AppErrorOptions {
  hint?: string | undefined;
  cause?: unknown;
}

/**
 * The base of every error a service throws on purpose. The error handler turns it into
 * `{ detail, code, hint? }` with `statusCode`; `message` is the sentence a person reads.
 */
export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  readonly hint: string | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

export class ValidationError extends AppError {
  readonly statusCode = 400;

  /** `namesFields` puts each field's path in `detail`, for nested bodies where a message alone would not say where. */
  constructor(
    readonly errors: FieldError[],
    options: AppErrorOptions & { code?: string; namesFields?: boolean } = {},
  ) {
    super(
      options.code ?? 'VALIDATION_FAILED',
      options.namesFields === true ? joinFieldMessages(errors) : joinMessages(errors),
      options,
    );
  }
}

export class UnauthorizedError extends AppError {
  readonly statusCode = 401;
}

export class ForbiddenError extends AppError {
  readonly statusCode = 403;
}

export class NotFoundError extends AppError {
  readonly statusCode = 404;
}

export class ConflictError extends AppError {
  readonly statusCode = 409;
}

/** What the call names was there and is no more (an expired invite link). */
export class GoneError extends AppError {
  readonly statusCode = 410;
}

/** Something the server needs for the call is missing on this machine (a browser for UI tests). */
export class ServiceUnavailableError extends AppError {
  readonly statusCode = 503;
}

/** An upload that cannot be imported: `message` names the file and says what is wrong and where. */
export class ImportFailedError extends AppError {
  readonly statusCode = 400;
}

export class PayloadTooLargeError extends AppError {
  readonly statusCode = 413;
}

export class RateLimitedError extends AppError {
  readonly statusCode = 429;

  /** Whole seconds until the client may try again; sent as the Retry-After header. */
  constructor(
    code: string,
    message: string,
    readonly retryAfterS: number,
    options: AppErrorOptions = {},
  ) {
    super(code, message, options);
  }
}

/** The `detail` of a validation answer: every distinct message, in order, joined by "; ". */
export function joinMessages(errors: readonly FieldError[]): string {
  return [...new Set(errors.map((e) => e.message))].join('; ');
}

/** Like joinMessages, each message after its field: "urls.0.url: Enter the URL; name: Please enter a plan name". */
export function joinFieldMessages(errors: readonly FieldError[]): string {
  return [...new Set(errors.map((e) => `${e.field}: ${e.message}`))].join('; ');
}
