import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contract, CurlBodySchema } from '@aqa/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { ImportFailedError, PayloadTooLargeError, ValidationError } from '../errors';
import { assertMultipartBoundary } from '../plugins/error-handler';
import type { ImportJob, UploadedFile } from '../services/import/import-job';
import type { UploadLimits } from '../config';
import { IMPORT_MESSAGES, type ImportService, MAX_UPLOAD_FILES } from '../services/import/import.service';

/** What a multipart upload holds: the main file, other files, and the text fields. */
interface Upload {
  file: UploadedFile | undefined;
  /** Other file parts: the rest of a multi-file spec ("files"), a Postman environment ("environment"). */
  others: Map<string, UploadedFile[]>;
  fields: Map<string, string>;
}

/** Counts the bytes of an upload's files as they pass, failing once they are over the upload's limit. */
class UploadCounter {
  bytes = 0;
  constructor(private readonly maxBytes: number) {}

  /** A pass-through stream for one file part that adds its bytes to the count. */
  stream(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.bytes += chunk.length;
        if (this.bytes > this.maxBytes) {
          done(new PayloadTooLargeError('UPLOAD_TOO_LARGE', IMPORT_MESSAGES.uploadTooLarge(this.maxBytes)));
        } else done(null, chunk);
      },
    });
  }
}

/**
 * Reads every part of a multipart request, streaming each file part to a file of its own in `folder`
 * as it arrives (docs/adr/0024-memory-bounds.md): a file over the per-file limit, or files together over
 * the per-upload limit, are refused with 413 as soon as the limit is passed, and the rest of the body
 * is read and dropped so that the client gets the answer. The first file part named `file` is the
 * document (any file part when none is named so). A part with no name and no content (a browser's empty
 * file input) is not a file.
 */
async function readUpload(request: FastifyRequest, limits: UploadLimits, folder: string): Promise<Upload> {
  const upload: Upload = { file: undefined, others: new Map(), fields: new Map() };
  if (!request.isMultipart()) return upload;
  assertMultipartBoundary(request.headers['content-type']);
  const counter = new UploadCounter(limits.maxUploadBytes);
  let stored = 0;
  try {
    for await (const part of request.parts({ limits: { fileSize: limits.maxFileBytes } })) {
      if (part.type === 'field') {
        upload.fields.set(part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
        continue;
      }
      const name = part.filename || part.fieldname;
      const path = join(folder, String(stored++));
      const before = counter.bytes;
      await pipeline(part.file, counter.stream(), createWriteStream(path));
      if (part.file.truncated) {
        throw new PayloadTooLargeError(
          'FILE_TOO_LARGE',
          IMPORT_MESSAGES.fileTooLarge(limits.maxFileBytes, name),
        );
      }
      const size = counter.bytes - before;
      if (size === 0 && part.filename === '') continue;
      const file: UploadedFile = { name, path, size };
      if (part.fieldname === 'file' && upload.file !== undefined) {
        throw new ValidationError([{ field: 'file', message: IMPORT_MESSAGES.twoDocuments }], {
          code: 'TOO_MANY_FILES',
        });
      }
      if (part.fieldname === 'file') upload.file = file;
      else upload.others.set(part.fieldname, [...(upload.others.get(part.fieldname) ?? []), file]);
    }
  } catch (error) {
    // What the client is still sending is read and dropped, so that it reads the answer rather than a
    // connection closed under it.
    request.raw.resume();
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new PayloadTooLargeError(
        'FILE_TOO_LARGE',
        IMPORT_MESSAGES.fileTooLarge(limits.maxFileBytes, 'one of the files'),
        { cause: error },
      );
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new PayloadTooLargeError('TOO_MANY_PARTS', IMPORT_MESSAGES.tooManyParts, { cause: error });
    }
    throw error;
  }
  if (upload.file === undefined) {
    // An upload whose only file part has another name still counts.
    const [first] = [...upload.others.entries()].filter(
      ([name]) => name !== 'environment' && name !== 'files',
    );
    if (first?.[1][0]) {
      upload.file = first[1][0];
      first[1].shift();
    }
  }
  return upload;
}

/**
 * Runs `handle` on the request's upload, received into a place the import service holds for it (its
 * share of the uploads at once, a folder of its own), which is given back, the folder removed, once the
 * answer is known.
 */
async function withUpload<T>(
  imports: ImportService,
  request: FastifyRequest,
  handle: (upload: Upload) => Promise<T>,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  let admitted;
  try {
    admitted = await imports.admit(ownerOf(request), Number.isFinite(declared) ? declared : undefined);
  } catch (error) {
    // Refused before a byte was read: the body is read and dropped, so the client gets the answer.
    request.raw.resume();
    throw error;
  }
  try {
    return await handle(await readUpload(request, imports.uploadLimits, admitted.folder));
  } finally {
    await admitted.release();
  }
}

/** Whose share of the import queue an upload uses. */
function ownerOf(request: FastifyRequest): string {
  return String(requireAuth(request).user.id);
}

function requireFile(upload: Upload, message: string): UploadedFile {
  if (upload.file === undefined) {
    throw new ValidationError([{ field: 'file', message }], { code: 'NO_FILE' });
  }
  return upload.file;
}

/** The optional base URL field: blank is none; anything else must be a full http(s) URL. */
function baseUrlOf(upload: Upload): string | undefined {
  const value = (upload.fields.get('base_url') ?? upload.fields.get('baseUrl') ?? '').trim();
  if (value === '') return undefined;
  // One loop after the host's first character: linear in the field's megabyte (docs/adr/0022-linear-time-patterns.md).
  if (!/^https?:\/\/[^\s/?#]\S*$/i.test(value)) {
    throw new ValidationError([
      {
        field: 'base_url',
        message:
          'The base URL must be a full URL starting with http:// or https://, e.g. http://localhost:8080/api',
      },
    ]);
  }
  return value;
}

/**
 * Sends the parse calls' answer as the worker wrote it (ParseResponseSchema, see parseReply): the bytes
 * as they are, not serialised again on the event loop (docs/adr/0017-import-queue-and-workers.md).
 */
function sendJson(reply: FastifyReply, json: Uint8Array): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .send(Buffer.from(json.buffer, json.byteOffset, json.byteLength));
}

/**
 * The upload calls: parse-swagger and parse-postman (docs/reference/01-authoring.md §7), the functional file parse (docs/reference/02-running.md §7),
 * parse-har and parse-curl. Documents are parsed in the import worker; see ImportService.
 */
export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (app, { imports }) => {
  await app.register(multipart, {
    // File names keep their folders ("paths/pets.yaml"), which the parts of a multi-file spec need.
    preservePath: true,
    // The file size is set per request (readUpload); one document and the files it refers to.
    limits: { files: MAX_UPLOAD_FILES + 1, fields: 20, fieldSize: 1024 * 1024, parts: 80 },
  });

  app.route({
    ...contract.imports.swagger,
    handler: async (request, reply) => {
      const json = await withUpload(imports, request, (upload) =>
        imports.parseToJson(ownerOf(request), {
          file: requireFile(upload, IMPORT_MESSAGES.noSwaggerFile),
          format: 'swagger',
          baseUrl: baseUrlOf(upload),
          files: upload.others.get('files') ?? [],
        }),
      );
      return sendJson(reply, json);
    },
  });

  app.route({
    ...contract.imports.postman,
    handler: async (request, reply) => {
      const json = await withUpload(imports, request, (upload) =>
        imports.parseToJson(ownerOf(request), {
          file: requireFile(upload, IMPORT_MESSAGES.noPostmanFile),
          format: 'postman',
          environment: upload.others.get('environment')?.[0],
        }),
      );
      return sendJson(reply, json);
    },
  });

  app.route({
    ...contract.imports.har,
    handler: async (request, reply) => {
      const json = await withUpload(imports, request, (upload) =>
        imports.parseToJson(ownerOf(request), {
          file: requireFile(upload, IMPORT_MESSAGES.noFile),
          format: 'har',
        }),
      );
      return sendJson(reply, json);
    },
  });

  app.route({
    ...contract.imports.taurus,
    handler: async (request, reply) => {
      const json = await withUpload(imports, request, (upload) =>
        imports.parseToJson(ownerOf(request), {
          file: requireFile(upload, IMPORT_MESSAGES.noFile),
          format: 'taurus',
          // The CSV files of its data-sources and its body files, by the names the script gives.
          files: upload.others.get('files') ?? [],
        }),
      );
      return sendJson(reply, json);
    },
  });

  app.route({
    ...contract.imports.curl,
    bodyLimit: 2 * 1024 * 1024,
    handler: async (request, reply) => {
      if (request.isMultipart()) {
        const json = await withUpload(imports, request, (upload) => {
          const command = upload.fields.get('command');
          const file: UploadedFile | undefined =
            upload.file ??
            (command?.trim()
              ? { name: 'the cURL command', bytes: new TextEncoder().encode(command) }
              : undefined);
          if (file === undefined)
            throw new ValidationError([{ field: 'command', message: IMPORT_MESSAGES.noCommand }], {
              code: 'NO_COMMAND',
            });
          return imports.parseToJson(ownerOf(request), { file, format: 'curl' });
        });
        return sendJson(reply, json);
      }
      const body = CurlBodySchema.safeParse(request.body);
      if (!body.success || body.data.command.trim() === '') {
        throw new ValidationError([{ field: 'command', message: IMPORT_MESSAGES.noCommand }], {
          code: 'NO_COMMAND',
        });
      }
      const file = { name: 'the cURL command', bytes: new TextEncoder().encode(body.data.command) };
      return sendJson(reply, await imports.parseToJson(ownerOf(request), { file, format: 'curl' }));
    },
  });

  app.route({
    ...contract.imports.functionalFile,
    handler: async (request) => {
      const { file, testType, result } = await withUpload(imports, request, async (upload) => {
        const file = requireFile(upload, IMPORT_MESSAGES.noFile);
        const job: ImportJob = {
          file,
          format: upload.fields.get('format')?.trim() || undefined,
          baseUrl: baseUrlOf(upload),
          files: upload.others.get('files') ?? [],
          environment: upload.others.get('environment')?.[0],
          data: upload.others.get('data')?.[0],
          taurusScript: { name: file.name.replace(/\.[^.]+$/, '') || 'imported' },
        };
        const testType = upload.fields.get('test_type')?.trim() || 'api';
        job.postmanPlan = { testType: testType === 'functional' ? 'functional' : 'api' };
        return { file, testType, result: await imports.parse(ownerOf(request), job) };
      });
      if (result.recording) {
        // A browser recording is a UI test: its plan and what was read, no API list or script (ADR 0030 §3).
        return {
          script: '',
          apis: [],
          format: result.recording.format,
          test_type: 'ui',
          warnings: result.warnings,
          script_warnings: [],
          steps: [],
          info: result.info,
          needs_value: [],
          plan: result.recording.plan,
          recording: result.recording.counts,
        };
      }
      if (!result.functional)
        throw new ImportFailedError('NO_SCRIPT', `${file.name}: no script could be generated from the file`);
      return {
        script: result.functional.script,
        apis: result.functional.apis,
        format: result.info.format,
        test_type: testType,
        warnings: result.warnings,
        script_warnings: result.functional.scriptWarnings,
        steps: result.steps,
        info: result.info,
        needs_value: result.needsValue,
        ...(result.postman ? { plan: result.postman.plan, postman: result.postman.counts } : {}),
      };
    },
  });
};
