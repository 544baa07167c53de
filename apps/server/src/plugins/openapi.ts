import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  ApiResultSchema,
  ChartDataSchema,
  CurrentUserResponseSchema,
  DemoCredentialsSchema,
  ErrorResponseSchema,
  FunctionalPlanSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  PasswordChangeSchema,
  PerfPlanSchema,
  UrlEntrySchema,
  ValidationCheckResultSchema,
  ApiValidationResultSchema,
  ValidationResponseSchema,
  ProfileUpdateSchema,
  RegisterResponseSchema,
  RegistrationSchema,
  ResultSummarySchema,
  TestResultSchema,
  UserSchema,
} from '@aqa/plan';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RunTestBodySchema,
  SavedApiDefinitionSchema,
  SavedFunctionalPlanSchema,
  SavedPlanSchema,
  SavedUrlEntrySchema,
  ScriptBodySchema,
} from '@aqa/contract';
import { isPublicApiRoute } from '../auth/authenticate';

/**
 * Names for the shared schemas in the document's components. A registry of our own rather than
 * zod's global one, so the model package stays free of server concerns.
 */
const schemaRegistry = z.registry<{ id?: string | undefined }>();
for (const [id, schema] of Object.entries({
  User: UserSchema,
  ErrorResponse: ErrorResponseSchema,
  Registration: RegistrationSchema,
  RegisterResponse: RegisterResponseSchema,
  LoginRequest: LoginRequestSchema,
  LoginResponse: LoginResponseSchema,
  CurrentUserResponse: CurrentUserResponseSchema,
  ProfileUpdate: ProfileUpdateSchema,
  PasswordChange: PasswordChangeSchema,
  DemoCredentials: DemoCredentialsSchema,
  PerfPlan: PerfPlanSchema,
  UrlEntry: UrlEntrySchema,
  SavedPlan: SavedPlanSchema,
  SavedUrlEntry: SavedUrlEntrySchema,
  ScriptRequest: ScriptBodySchema,
  ValidationResponse: ValidationResponseSchema,
  ApiValidationResult: ApiValidationResultSchema,
  ValidationCheckResult: ValidationCheckResultSchema,
  RunTestRequest: RunTestBodySchema,
  TestResult: TestResultSchema,
  ResultSummary: ResultSummarySchema,
  ApiResult: ApiResultSchema,
  ChartData: ChartDataSchema,
  FunctionalPlan: FunctionalPlanSchema,
  SavedFunctionalPlan: SavedFunctionalPlanSchema,
  SavedApiDefinition: SavedApiDefinitionSchema,
})) {
  schemaRegistry.add(schema, { id });
}

const zodTransform = createJsonSchemaTransform({ schemaRegistry });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry });

/**
 * The zod transform emits every registered schema twice (an input and an output variant); keep
 * only the components that the paths actually reference, directly or through other components.
 */
function withoutUnusedComponents<
  T extends { paths?: unknown; components?: { schemas?: Record<string, unknown> } },
>(document: T): T {
  const all = document.components?.schemas;
  if (all === undefined) return document;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string'
          ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1]
          : undefined;
      if (name !== undefined && !used.has(name)) {
        used.add(name);
        visit(all[name]);
      } else {
        visit(value);
      }
    }
  };
  visit(document.paths);
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas } };
}

/** The interactive reference; the document itself is at `${API_DOCS_PREFIX}/json` (and `/yaml`). */
const API_DOCS_PREFIX = '/api/docs';

/**
 * Collects every route's zod schemas into an OpenAPI 3.1 document, and serves Swagger UI over it at
 * GET /api/docs with the JSON at GET /api/docs/json. Swagger UI's scripts, styles and its initialiser
 * are files served from this origin (no CDN, no inline script), so the app's CSP needs no exception.
 * Must be registered before the routes it documents.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'AnybodyQA API',
        description: 'Build, save and run API load tests and functional tests.',
        version,
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'The token returned by POST /api/login.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: (document) => {
      const result = zodTransform(document);
      // The public list of the authentication hook is the one source of truth for the document too.
      if (isPublicApiRoute(String(document.route.method), document.url)) {
        return { ...result, schema: { ...result.schema, security: [] } };
      }
      return result;
    },
    transformObject: (document) => withoutUnusedComponents(zodTransformObject(document)),
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    theme: { title: 'AnybodyQA API' },
    // No call to validator.swagger.io: the page talks to this server only.
    validatorUrl: false,
    uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: false },
  });
}
