import { describe, expect, it } from 'vitest';
import { bytesOf, fixture } from '../../test/fixtures';
import { sampleCsv } from './csv-to-plan';
import { importFile } from './import-file';
import { sampleXlsx } from './xlsx-to-plan';

describe('importFile', () => {
  it('detects each format from the content', () => {
    const format = (input: Parameters<typeof importFile>[0]) => importFile(input).info.format;
    expect(format(fixture('openapi/oai-examples/v3.0/petstore.yaml'))).toBe('swagger');
    expect(format(fixture('openapi/oai-examples/v2.0/json/petstore.json'))).toBe('swagger');
    expect(format(fixture('postman/newman/examples/v1.postman_collection.json'))).toBe('postman');
    expect(format(fixture('har/har-to-k6/example/api.har'))).toBe('har');
    expect(format({ name: 'pasted', text: '# from the docs\ncurl https://h/x' })).toBe('curl');
    expect(format({ name: 'apis.csv', bytes: bytesOf(sampleCsv()) })).toBe('csv');
    expect(format({ name: 'apis', bytes: bytesOf(sampleCsv()) })).toBe('csv');
    expect(format({ name: 'apis.xlsx', bytes: sampleXlsx() })).toBe('excel');
  });

  it('passes the base URL to OpenAPI', () => {
    const result = importFile({
      ...fixture('openapi/oai-examples/v3.0/petstore.json'),
      format: 'swagger',
      baseUrl: 'http://localhost:4010',
    });
    expect(result.steps[0]?.url).toBe('http://localhost:4010/pets');
  });

  it('refuses a file of another kind than the one chosen, saying what it is', () => {
    expect(() =>
      importFile({ ...fixture('openapi/oai-examples/v3.0/petstore.yaml'), format: 'postman' }),
    ).toThrow(
      'petstore.yaml: this is an OpenAPI 3.0.0 document, not a Postman collection; choose the matching file type, or upload a Postman collection',
    );
    expect(() =>
      importFile({ ...fixture('postman/newman/examples/sample-collection.json'), format: 'openapi' }),
    ).toThrow(/^sample-collection\.json: this is a Postman collection, not an OpenAPI \/ Swagger document/);
    expect(() => importFile({ name: 'x.json', text: '{}', format: 'soap' })).toThrow(
      'x.json: "soap" is not an import format; use one of swagger, postman, har, curl, csv, excel',
    );
  });

  it('refuses plain text and unknown JSON clearly', () => {
    expect(() => importFile({ name: 'notes.txt', text: 'just some words' })).toThrow(
      'notes.txt: this is not an API description: it holds plain text, not a JSON or YAML document',
    );
    expect(() => importFile({ name: 'list.json', text: '[1, 2]' })).toThrow(
      /^list\.json: this is a JSON array \(2 rows/,
    );
  });
});
