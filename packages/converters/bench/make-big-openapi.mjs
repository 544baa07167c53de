/* eslint-disable no-restricted-imports, no-console -- A Node-only benchmark script, never part of the browser bundle. */
// Writes a large, realistic OpenAPI 3.0 document for the import benchmark: by default 110 resources with
// 6 operations each (660 operations), every schema reached through $refs (allOf with a shared base,
// oneOf variants, a recursive parent link), long Markdown descriptions and examples, like the big
// public API documents (GitHub's, Stripe's). The same document is written as JSON and as YAML.
//
//   node packages/converters/bench/make-big-openapi.mjs [--resources 110] [--out <dir>]
//
// Deterministic: the same options always write the same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';

export function makeBigOpenApi(resources = 110) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const words =
    'account invoice order customer payment shipment ledger balance refund webhook token session policy quota region cluster node volume snapshot backup metric alert channel member team project release artifact pipeline'.split(
      ' ',
    );
  const sentence = (n) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ') + '.';
  const paragraph = (sentences) => Array.from({ length: sentences }, () => sentence(16)).join(' ');
  const name = (i) => `${words[i % words.length]}${Math.floor(i / words.length) || ''}`;
  const pascal = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  const schemas = {
    Base: {
      type: 'object',
      required: ['id', 'created_at'],
      properties: {
        id: { type: 'string', format: 'uuid', readOnly: true, description: paragraph(2) },
        created_at: { type: 'string', format: 'date-time', readOnly: true, description: paragraph(1) },
        updated_at: { type: 'string', format: 'date-time', readOnly: true, description: paragraph(1) },
        labels: { type: 'object', additionalProperties: { type: 'string' }, description: paragraph(2) },
      },
    },
    Error: {
      type: 'object',
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        details: { type: 'array', items: { $ref: '#/components/schemas/Error' } },
      },
    },
    Page: {
      type: 'object',
      properties: { next: { type: 'string', format: 'uri' }, total: { type: 'integer', minimum: 0 } },
    },
  };
  const parameters = {
    PageSize: {
      name: 'per_page',
      in: 'query',
      schema: { type: 'integer', default: 30, maximum: 100 },
      description: paragraph(2),
    },
    Cursor: { name: 'cursor', in: 'query', schema: { type: 'string' }, description: paragraph(2) },
    RequestId: {
      name: 'X-Request-Id',
      in: 'header',
      schema: { type: 'string', format: 'uuid' },
      description: paragraph(1),
    },
  };
  const responses = {
    NotFound: {
      description: 'Not found',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
    Invalid: {
      description: 'Invalid input',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
  const paths = {};

  for (let r = 0; r < resources; r++) {
    const resource = name(r);
    const Type = pascal(resource);
    const properties = {};
    for (let p = 0; p < 48; p++) {
      const kind = p % 6;
      const prop = `${words[(p + r) % words.length]}_${p}`;
      properties[prop] =
        kind === 0
          ? { type: 'string', description: paragraph(3), example: sentence(3) }
          : kind === 1
            ? { type: 'integer', format: 'int64', minimum: 1, description: paragraph(2) }
            : kind === 2
              ? { type: 'string', enum: ['active', 'suspended', 'closed'], description: paragraph(2) }
              : kind === 3
                ? {
                    type: 'array',
                    items: { $ref: `#/components/schemas/${pascal(name((r + p) % resources))}Summary` },
                    description: paragraph(2),
                  }
                : kind === 4
                  ? { type: 'boolean', description: paragraph(1) }
                  : { type: 'number', format: 'double', description: paragraph(2) };
    }
    properties.parent = {
      $ref: `#/components/schemas/${Type}`,
      description: 'The parent, of the same type (recursive).',
    };
    properties.settings = {
      oneOf: [
        { $ref: `#/components/schemas/${Type}BasicSettings` },
        { $ref: `#/components/schemas/${Type}AdvancedSettings` },
      ],
      discriminator: { propertyName: 'kind' },
    };
    schemas[Type] = {
      allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['name'], properties }],
      description: paragraph(4),
    };
    schemas[`${Type}Summary`] = {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        url: { type: 'string', format: 'uri' },
      },
    };
    schemas[`${Type}BasicSettings`] = {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['basic'] }, level: { type: 'integer' } },
    };
    schemas[`${Type}AdvancedSettings`] = {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['advanced'] },
        rules: { type: 'array', items: { type: 'string' } },
      },
    };
    schemas[`${Type}List`] = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: `#/components/schemas/${Type}` } },
        page: { $ref: '#/components/schemas/Page' },
      },
    };

    const ref = (s) => ({ $ref: `#/components/schemas/${s}` });
    const json = (schema) => ({ 'application/json': { schema } });
    const op = (summary, extra) => ({
      summary,
      operationId: `${summary.replace(/\W+/g, '_').toLowerCase()}_${r}`,
      tags: [Type],
      description: `${paragraph(12)}\n\n## Notes\n\n${paragraph(10)}\n\n\`\`\`json\n${JSON.stringify({ example: sentence(6) }, null, 2)}\n\`\`\``,
      security: [{ bearer: [] }],
      ...extra,
      responses: {
        200: { description: paragraph(1), content: json(ref(extra.list ? `${Type}List` : Type)) },
        400: { $ref: '#/components/responses/Invalid' },
        404: { $ref: '#/components/responses/NotFound' },
      },
    });
    const idParam = {
      name: `${resource}_id`,
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
      description: paragraph(1),
    };
    paths[`/v1/${resource}s`] = {
      get: op(`List ${resource}s`, {
        list: true,
        parameters: [
          { $ref: '#/components/parameters/PageSize' },
          { $ref: '#/components/parameters/Cursor' },
          { $ref: '#/components/parameters/RequestId' },
        ],
      }),
      post: op(`Create ${resource}`, { requestBody: { required: true, content: json(ref(Type)) } }),
    };
    paths[`/v1/${resource}s/{${resource}_id}`] = {
      parameters: [idParam],
      get: op(`Get ${resource}`, {}),
      put: op(`Replace ${resource}`, { requestBody: { required: true, content: json(ref(Type)) } }),
      patch: op(`Update ${resource}`, {
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: ref(`${Type}Summary`) } } },
      }),
      delete: op(`Delete ${resource}`, {}),
    };
    for (const o of Object.values(paths[`/v1/${resource}s`])) delete o.list;
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Big benchmark API', version: '1.0.0', description: paragraph(20) },
    servers: [
      {
        url: 'https://{region}.api.example.com',
        variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
      },
    ],
    paths,
    components: {
      schemas,
      parameters,
      responses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

export function writeBigOpenApi({ resources = 110, out = join(tmpdir(), 'aqa-import-bench') } = {}) {
  mkdirSync(out, { recursive: true });
  const doc = makeBigOpenApi(resources);
  const jsonPath = join(out, 'big-openapi.json');
  const yamlPath = join(out, 'big-openapi.yaml');
  writeFileSync(jsonPath, JSON.stringify(doc, null, 2));
  writeFileSync(yamlPath, stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
  const operations = Object.values(doc.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => k !== 'parameters').length,
    0,
  );
  return { jsonPath, yamlPath, operations };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { resources: { type: 'string', default: '110' }, out: { type: 'string' } },
  });
  const written = writeBigOpenApi({
    resources: Number(values.resources),
    ...(values.out ? { out: values.out } : {}),
  });
  const { statSync } = await import('node:fs');
  for (const path of [written.jsonPath, written.yamlPath]) {
    console.log(
      `${path}  ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB  ${written.operations} operations`,
    );
  }
}
