import { asString, ImportError, type ImportResult, isRecord } from './import-model';
import type { OpenApiImportOptions } from './openapi-import';
import { OpenApi3Import } from './openapi3-to-plan';
import { type ImportSource, readStructured } from './read-document';
import { Swagger2Import } from './swagger2-to-plan';

export { BASE_URL_PLACEHOLDER, type OpenApiImportOptions } from './openapi-import';

/**
 * OpenAPI 3.0 / 3.1 / 3.2 and Swagger 2.0 (JSON or YAML) → plan steps, one per operation in document order
 * (paths as written, then methods as written). URLs are the first server (variables at their defaults) or
 * the base URL given, plus the path with its parameters filled in; query, header and cookie parameters,
 * the request body (the document's example, else a sample built from the schema) and the security
 * requirement become the step's parameters, headers, payload and authorization. A parameter gets only a
 * value the document gives (example, default, enum), written by its style; one that must be sent without
 * such a value is a {{variable}}, listed in the result's needsValue. The two dialects are
 * openapi3-to-plan.ts and swagger2-to-plan.ts over the shared openapi-import.ts.
 */

export function openApiToPlan(source: ImportSource, options: OpenApiImportOptions = {}): ImportResult {
  const { value, file } = readStructured(source);
  return openApiDocumentToPlan(value, file, options);
}

/** The same, for a document already parsed (importFile reads it once to detect its format). */
export function openApiDocumentToPlan(
  doc: unknown,
  file: string,
  options: OpenApiImportOptions = {},
): ImportResult {
  const version = specVersion(doc, file);
  const document = doc as Record<string, unknown>;
  const importer = version.swagger2
    ? new Swagger2Import(document, file, options)
    : new OpenApi3Import(document, file, version.number, options);
  return importer.run();
}

interface SpecVersion {
  swagger2: boolean;
  /** "3.0.3", "2.0". */
  number: string;
}

function specVersion(doc: unknown, file: string): SpecVersion {
  if (!isRecord(doc)) {
    throw new ImportError(
      file,
      'this is not an OpenAPI or Swagger document: it is not a JSON or YAML object',
    );
  }
  const openapi = asString(doc.openapi);
  const swagger = asString(doc.swagger);
  if (openapi !== undefined) {
    if (/^3\.\d+(\.\d+)?/.test(openapi.trim())) return { swagger2: false, number: openapi.trim() };
    throw new ImportError(
      file,
      `OpenAPI version "${openapi}" is not supported; OpenAPI 3.0, 3.1 and 3.2 and Swagger 2.0 are`,
    );
  }
  if (swagger !== undefined) {
    if (/^2(\.0)?$/.test(swagger.trim())) return { swagger2: true, number: '2.0' };
    throw new ImportError(
      file,
      `Swagger version "${swagger}" is not supported; Swagger 2.0 and OpenAPI 3.x are`,
    );
  }
  if (doc.swaggerVersion !== undefined) {
    throw new ImportError(
      file,
      `Swagger ${asString(doc.swaggerVersion) ?? '1.x'} is not supported; convert it to Swagger 2.0 or OpenAPI 3 first`,
    );
  }
  throw new ImportError(
    file,
    `this is not an OpenAPI or Swagger document: it has no "openapi" or "swagger" field (its top-level keys are ${topKeys(doc)})`,
  );
}

export function topKeys(doc: Record<string, unknown>): string {
  const keys = Object.keys(doc);
  if (keys.length === 0) return 'none';
  return keys.length > 8 ? `${keys.slice(0, 8).join(', ')}, …` : keys.join(', ');
}
