import { contract, type CallAnswer } from '@aqa/contract';
import type { FunctionalResult, FunctionalStatusResponse } from '@aqa/plan';
import type { ReportFile } from '@/components/report-downloads';
import { fetchReportFile } from '@/features/results';
import { call } from '@/lib/api';
import { routeKey, routesKey, type RouteKey } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';

/**
 * The functional result calls of docs/reference/02-running.md §7 under /api/functional (results list, one
 * result, its status, stop, delete), the report download, and the health check of the functional
 * dashboard. The plan calls are in ./plan-api.ts. Every call is for the signed-in user (user_email).
 */

/**
 * GET /api/functional/functional-test-results: the user's runs, newest first; each keeps its first 3
 * validation results and says in validation_results_total how many calls it judged. With `limit`, only
 * the newest that many (Recent Activity asks for 5, docs/reference/02-running.md §7).
 */
export function fetchFunctionalResults(signal?: AbortSignal, limit?: number): Promise<FunctionalResult[]> {
  return call(contract.functional.results, { query: { user_email: sessionUserEmail(), limit } }, { signal });
}

/** The cache key of a run's live view: its status and its result, as the two calls ask them. */
export const liveResultKey = (id: string): RouteKey =>
  routesKey(
    routeKey(contract.functional.status, { params: { id }, query: { user_email: sessionUserEmail() } }),
    routeKey(contract.functional.result, { params: { id }, query: { user_email: sessionUserEmail() } }),
  );

/** GET /api/functional/get-test-result/{id}: the whole result (a long run keeps its first calls). */
export function fetchFunctionalResult(id: string, signal?: AbortSignal): Promise<FunctionalResult> {
  return call(
    contract.functional.result,
    { params: { id }, query: { user_email: sessionUserEmail() } },
    { signal },
  );
}

/**
 * GET /api/functional/screenshot/{testId}/{shotId}: a UI step's JPEG, to the run's owner only. Fetched as
 * bytes because the call needs the bearer header an <img src> cannot send.
 */
export function fetchFunctionalScreenshot(
  testId: string,
  shotId: string,
  signal?: AbortSignal,
): Promise<Blob> {
  // The 200 schema documents the bytes as text; the answer is read as a Blob (responseType).
  return call(
    contract.functional.screenshot,
    { params: { testId, shotId }, query: { user_email: sessionUserEmail() } },
    { signal, responseType: 'blob' },
  ).then((bytes: unknown) => bytes as Blob);
}

/** GET /api/functional/get-test-status/{id}: the run's status alone, polled every 5 s. */
export function fetchFunctionalStatus(id: string, signal?: AbortSignal): Promise<FunctionalStatusResponse> {
  return call(
    contract.functional.status,
    { params: { id }, query: { user_email: sessionUserEmail() } },
    { signal },
  );
}

/** POST /api/functional/stop-test/{id}. */
export function stopFunctionalTest(id: string): Promise<FunctionalStatusResponse> {
  return call(contract.functional.stop, { params: { id }, query: { user_email: sessionUserEmail() } });
}

/** DELETE /api/functional/delete-result/{id}. */
export function deleteFunctionalResult(id: string): Promise<unknown> {
  return call(contract.functional.deleteResult, {
    params: { id },
    query: { user_email: sessionUserEmail() },
  });
}

/** GET /api/health: the server answers, and whether its database does (503 when it does not). */
export type HealthAnswer = CallAnswer<typeof contract.system.health>;

export function fetchHealth(signal?: AbortSignal): Promise<HealthAnswer> {
  return call(contract.system.health, {}, { signal, auth: false });
}

export type FunctionalReportFormat = 'junit' | 'json' | 'html';

const REPORT_TYPES: Record<FunctionalReportFormat, { type: string; extension: string }> = {
  junit: { type: 'application/xml;charset=utf-8', extension: 'xml' },
  json: { type: 'application/json;charset=utf-8', extension: 'json' },
  html: { type: 'text/html;charset=utf-8', extension: 'html' },
};

/** GET /api/functional/test-report/{id}?format=junit|json|html: the report as text, with the server's file name. */
export function fetchFunctionalReport(id: string, format: FunctionalReportFormat): Promise<ReportFile> {
  const { type, extension } = REPORT_TYPES[format];
  return fetchReportFile(
    (options) =>
      call(
        contract.functional.report,
        { params: { id }, query: { format, user_email: sessionUserEmail() } },
        options,
      ),
    `functional_report_${id}.${extension}`,
    type,
  );
}
