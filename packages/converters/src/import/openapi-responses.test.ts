import {
  ApiDefinitionSchema,
  FunctionalPlanSchema,
  FunctionalValidationSchema,
  migratePlan,
  type FunctionalValidation,
} from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures';
import { importFile } from './import-file';
import { openApiToPlan } from './openapi-to-plan';
import { planToFunctional, responseValidations, stepToFunctionalApi } from './plan-to-functional';

/** OAI's Petstore example (test-fixtures/README.md). */
const PETSTORE = fixture('openapi/oai-examples/v3.0/petstore.yaml');

const PET = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string' },
    tag: { type: 'string' },
  },
};

const rulesOf = (result: ReturnType<typeof importFile>) =>
  result.sources.map((source) => responseValidations(source, result.warnings));
const schemaOf = (rules: FunctionalValidation[]) => {
  const rule = rules.find((r) => r.type === 'schema');
  return rule ? (JSON.parse(rule.expected_value ?? '') as Record<string, unknown>) : undefined;
};

const doc = (spec: Record<string, unknown>) => ({ name: 'api.json', text: JSON.stringify(spec) });
const v3 = (responses: Record<string, unknown>, schemas: Record<string, unknown> = {}, version = '3.0.3') =>
  doc({
    openapi: version,
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.test' }],
    paths: { '/x': { get: { responses } } },
    components: { schemas },
  });
const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });

describe('documented response rules (OpenAPI import for functional tests)', () => {
  it('gives each Petstore v3 API its documented status and its JSON schema with the $refs inlined', () => {
    const result = importFile({ ...PETSTORE, responseSchemas: true });
    const rules = rulesOf(result);
    expect(
      rules.map((r) => r.map((v) => `${v.type} ${v.type === 'schema' ? '…' : v.expected_value}`)),
    ).toEqual([['status_code 200', 'schema …'], ['status_code 201'], ['status_code 200', 'schema …']]);
    expect(schemaOf(rules[0]!)).toEqual({ type: 'array', maxItems: 100, items: PET });
    expect(schemaOf(rules[2]!)).toEqual(PET);
    for (const list of rules) {
      for (const rule of list) {
        expect(rule.expected_value).not.toContain('$ref');
        expect(FunctionalValidationSchema.parse(rule)).toEqual(rule);
      }
    }
    // The API the file parse answers fits the model's API definition, rules and all.
    const api = stepToFunctionalApi(result.steps[2]!, result.sources[2], 'paths./pets/{petId}.get', []);
    expect(ApiDefinitionSchema.parse(api).validations).toEqual(rules[2]);
  });

  it('keeps only the status when schemas are not asked for (load tests)', () => {
    const result = importFile(PETSTORE);
    expect(result.sources.map((s) => s.response)).toEqual([
      { status: 200 },
      { status: 201 },
      { status: 200 },
    ]);
  });

  it('takes the lowest 2xx, a 2XX range as 200, and 200 when no success is documented', () => {
    const statuses = [
      { '204': { description: 'none' }, '201': json({ type: 'string' }), '400': { description: 'bad' } },
      { '2XX': json({ type: 'integer' }) },
      { default: json({ type: 'object' }) },
    ].map((responses) => openApiToPlan(v3(responses), { responseSchemas: true }).sources[0]?.response);
    expect(statuses).toEqual([
      { status: 201, schema: { type: 'string' } },
      { status: 200, schema: { type: 'integer' } },
      { status: 200 },
    ]);
  });

  it('cuts a recursive schema where it recurs, with a note, and keeps OpenAPI 3.0 nullable', () => {
    const result = openApiToPlan(
      v3(
        { '200': json({ $ref: '#/components/schemas/Node' }) },
        {
          Node: {
            type: 'object',
            nullable: true,
            example: { name: 'root' },
            properties: {
              name: { type: 'string', 'x-internal': true },
              example: { type: 'number', minimum: 0, exclusiveMinimum: true },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      ),
      { responseSchemas: true },
    );
    expect(result.sources[0]?.response?.schema).toEqual({
      type: 'object',
      nullable: true,
      properties: {
        name: { type: 'string' },
        // A property named like an annotation is kept; the draft-4 exclusive bound is written as a number.
        example: { type: 'number', exclusiveMinimum: 0 },
        children: {
          type: 'array',
          items: { $comment: '$ref #/components/schemas/Node recurs here; deeper levels are not checked' },
        },
      },
    });
    expect(result.warnings.map((w) => w.message)).toContain(
      'This schema refers back to itself: a schema rule checks a response down to where it recurs and accepts anything deeper',
    );
  });

  it('applies the siblings of a $ref in OpenAPI 3.1 and keeps its numeric bounds', () => {
    const result = openApiToPlan(
      v3(
        {
          '200': json({
            type: 'object',
            properties: {
              described: { $ref: '#/components/schemas/Count', description: 'only an annotation' },
              bounded: { $ref: '#/components/schemas/Count', maximum: 9 },
            },
          }),
        },
        { Count: { type: ['integer', 'null'], exclusiveMinimum: 0 } },
        '3.1.0',
      ),
      { responseSchemas: true },
    );
    const count = { type: ['integer', 'null'], exclusiveMinimum: 0 };
    expect(result.sources[0]?.response?.schema).toEqual({
      type: 'object',
      properties: { described: count, bounded: { maximum: 9, allOf: [count] } },
    });
  });

  it('gives up the schema rule, not the import, when inlining would grow past the bound', () => {
    // Each level refers to the one below twice: 2^40 copies once inlined.
    const schemas: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 40; i++) {
      schemas[`L${i}`] = {
        type: 'object',
        properties: {
          a: { $ref: `#/components/schemas/L${i - 1}` },
          b: { $ref: `#/components/schemas/L${i - 1}` },
        },
      };
    }
    const result = openApiToPlan(v3({ '200': json({ $ref: '#/components/schemas/L40' }) }, schemas), {
      responseSchemas: true,
    });
    expect(result.sources[0]?.response).toEqual({ status: 200 });
    expect(result.warnings.map((w) => w.message)).toContain(
      'GET /x gets no schema rule, only its status: with its $refs inlined the response schema is longer than 1,000,000 characters',
    );
  });

  it('reads Swagger 2 response schemas, x-nullable as nullable, and none when only XML is produced', () => {
    const swagger = (produces: string[]) =>
      doc({
        swagger: '2.0',
        info: { title: 'T', version: '1' },
        host: 'api.test',
        produces,
        paths: {
          '/pets': {
            get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pets' } } } },
          },
        },
        definitions: {
          Pets: { type: 'array', items: { $ref: '#/definitions/Pet' } },
          Pet: { type: 'object', properties: { tag: { type: 'string', 'x-nullable': true } } },
        },
      });
    expect(
      openApiToPlan(swagger(['application/json']), { responseSchemas: true }).sources[0]?.response,
    ).toEqual({
      status: 200,
      schema: {
        type: 'array',
        items: { type: 'object', properties: { tag: { type: 'string', nullable: true } } },
      },
    });
    expect(
      openApiToPlan(swagger(['application/xml']), { responseSchemas: true }).sources[0]?.response,
    ).toEqual({
      status: 200,
    });
  });

  it('turns a performance plan into a functional plan the model accepts', () => {
    const result = importFile({ ...PETSTORE, responseSchemas: true });
    const perf = migratePlan({ name: 'Petstore', urls: result.steps });
    const { plan, warnings } = planToFunctional(perf, result.sources);
    const parsed = FunctionalPlanSchema.parse(plan);
    expect(warnings).toEqual([]);
    expect(parsed.apis.map((a) => `${a.method} ${a.name} ${a.validations.length}`)).toEqual([
      'GET List all pets 2',
      'POST Create a pet 1',
      'GET Info for a specific pet 2',
    ]);
    expect(parsed.apis[1]?.body).toContain('"name"');
    expect([parsed.iterations, parsed.concurrent_users, parsed.think_time]).toEqual([1, 1, 0]);
  });
});

describe('documented response rules on the real documents of test-fixtures/README.md', () => {
  it('Swagger Petstore v3: every API gets its status, the JSON ones their schema with Category and Tag inlined', () => {
    const result = importFile({
      ...fixture('openapi/swagger-petstore/v3-openapi.yaml'),
      responseSchemas: true,
    });
    const rules = rulesOf(result);
    expect(rules).toHaveLength(19);
    expect(rules.every((r) => r[0]?.type === 'status_code')).toBe(true);
    const findByStatus = result.sources.findIndex((s) => s.path === '/pet/findByStatus');
    const schema = schemaOf(rules[findByStatus]!) as {
      type: string;
      items: { properties: Record<string, { properties?: object }> };
    };
    expect(schema.type).toBe('array');
    expect(Object.keys(schema.items.properties.category?.properties ?? {})).toEqual(['id', 'name']);
    expect(rules.flat().filter((v) => v.expected_value?.includes('$ref'))).toEqual([]);
    const withSchema = rules.filter((r) => r.some((v) => v.type === 'schema')).length;
    expect(withSchema).toBeGreaterThan(10);
  });

  it('Swagger 2 petstore: GET /pets is checked against Pets, an array of Pet', () => {
    const result = importFile({
      ...fixture('openapi/oai-examples/v2.0/json/petstore.json'),
      responseSchemas: true,
    });
    const schema = schemaOf(rulesOf(result)[0]!);
    expect(schema).toMatchObject({ type: 'array', items: { required: ['id', 'name'] } });
  });
});
