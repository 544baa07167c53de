import { readFileSync } from 'node:fs';
import { FIXTURES_DIR } from '../../test/fixtures';

/* For the tests of the schema rule only. */

/** The response schemas of a real OpenAPI document (OAI's Petstore, test-fixtures/README.md), $refs inlined as the importer writes them. */
const document = JSON.parse(
  readFileSync(`${FIXTURES_DIR}openapi/oai-examples/v3.0/petstore.json`, 'utf8'),
) as { components: { schemas: Record<string, unknown> }; paths: Record<string, Record<string, unknown>> };

function inline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inline);
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return inline(document.components.schemas[ref.split('/').pop()!]);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
}

/** The schema a status of an operation answers with, in the importer's words: JSON text, $refs inlined. */
export function petstoreSchema(path: string, status: string): string {
  const operation = document.paths[path]!.get as {
    responses: Record<string, { content: { 'application/json': { schema: unknown } } }>;
  };
  return JSON.stringify(inline(operation.responses[status]!.content['application/json'].schema));
}
