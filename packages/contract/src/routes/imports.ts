import { ErrorResponseSchema } from '@aqa/plan';
import { defineRoute } from '../route';
import { FileParseResponseSchema, ParseResponseSchema, TaurusParseResponseSchema } from '../schemas/import';

const UPLOAD_ERRORS = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  413: ErrorResponseSchema,
  429: ErrorResponseSchema,
} as const;

/** The imports (docs/reference/01-authoring.md §3): an uploaded file or a curl command in, steps out. */
export const imports = {
  swagger: defineRoute({
    method: 'POST',
    url: '/api/parse-swagger',
    schema: {
      tags: ['import'],
      summary:
        'Import an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML). Multipart: file, optional base_url (replaces the servers), optional files (the other files of a multi-file spec)',
      consumes: ['multipart/form-data'],
      response: { 200: ParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
  postman: defineRoute({
    method: 'POST',
    url: '/api/parse-postman',
    schema: {
      tags: ['import'],
      summary:
        'Import a Postman collection (v2.1, v2.0 or v1). Multipart: file, optional environment (a Postman environment whose values fill the {{variables}})',
      consumes: ['multipart/form-data'],
      response: { 200: ParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
  har: defineRoute({
    method: 'POST',
    url: '/api/parse-har',
    schema: {
      tags: ['import'],
      summary: 'Import a HAR recording (HAR 1.2, as browsers and proxies save it). Multipart: file',
      consumes: ['multipart/form-data'],
      response: { 200: ParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
  taurus: defineRoute({
    method: 'POST',
    url: '/api/parse-taurus',
    schema: {
      tags: ['import'],
      summary:
        'Import a Taurus configuration (YAML) as a performance plan: its first execution\'s requests, load profile and data sources (docs/adr/0027-load-profiles.md "Importers"). Multipart: file, optional files (the CSV files of its data-sources, its body files)',
      consumes: ['multipart/form-data'],
      response: { 200: TaurusParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
  curl: defineRoute({
    method: 'POST',
    url: '/api/parse-curl',
    schema: {
      tags: ['import'],
      summary: 'Import curl commands: JSON { command } or multipart (file, or a command field)',
      consumes: ['application/json', 'multipart/form-data'],
      response: { 200: ParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
  functionalFile: defineRoute({
    method: 'POST',
    url: '/api/functional/parse-file',
    schema: {
      tags: ['import', 'functional'],
      summary:
        'Turn an uploaded file into a Taurus script and its API list (docs/reference/02-running.md §7). Multipart: file, format (postman, swagger, csv, excel, har, curl; detected when absent), test_type, optional base_url; for a Postman collection also optional environment (a Postman environment or globals file) and data (a CSV or JSON data file, as newman -d)',
      description:
        'For a Postman collection the answer also holds `plan`, a functional plan ready for `POST /api/functional/save-config` (its variables, environment, scripts, data file and iterations, cookie jar and redirects on), and `postman`, how its tests were carried: `{tests, rules, scripts, left_out: [{request, line, reason}]}` (docs/adr/0029-postman-collections.md). A malformed environment or data file is a 400 naming the file and the line or row.',
      consumes: ['multipart/form-data'],
      response: { 200: FileParseResponseSchema, ...UPLOAD_ERRORS },
    },
  }),
};
