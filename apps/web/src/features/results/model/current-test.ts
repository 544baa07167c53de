import { storage } from '@/lib/storage';
import { minutesToSeconds } from './progress';
import type { StartFailure } from './status-machine';
import type { RunTestInput } from '@/lib/run-test';

/**
 * Browser storage of docs/reference/02-running.md §3: `currentTestId` (the run on screen) and `currentTestConfig` (the test
 * configuration a screen hands over to start a run here). Stop and Back remove both (docs/reference/02-running.md §7).
 */
export const CURRENT_TEST_ID_KEY = 'currentTestId';
export const CURRENT_TEST_CONFIG_KEY = 'currentTestConfig';

/**
 * The test configuration of docs/reference/02-running.md §3, kept in browser storage as
 * `currentTestConfig` by a screen that asks the result screen to start a run (route /test-result/new).
 * A browser-side record, not an answer of the server: older screens wrote some names differently.
 */
export interface TestConfig {
  tool?: string;
  concurrent_users?: number;
  /** Minutes. */
  duration?: number;
  /** Seconds; overrides `duration` (short runs). */
  duration_seconds?: number;
  urls?: unknown[];
  plan_name?: string;
  planName?: string;
  name?: string;
  plan_id?: string;
  planId?: string;
  testId?: string;
}

/**
 * The route id that asks the result screen to start the run of the stored `currentTestConfig`:
 * /test-result/new. Once the server answers with a test id the address becomes /test-result/{id}.
 */
export const NEW_TEST_ROUTE_ID = 'new';

export function readTestConfig(): TestConfig | null {
  const raw = storage.get(CURRENT_TEST_CONFIG_KEY);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Leaves a configuration for the result screen to start (then open /test-result/new). */
export function storeTestConfig(config: TestConfig): void {
  storage.set(CURRENT_TEST_CONFIG_KEY, JSON.stringify(config));
}

/** Remembers the run on screen; the stored configuration (if any) learns its test id. */
export function rememberCurrentTest(testId: string): void {
  storage.set(CURRENT_TEST_ID_KEY, testId);
  const config = readTestConfig();
  if (config && config.testId !== testId) storeTestConfig({ ...config, testId });
}

export function clearCurrentTest(): void {
  storage.remove(CURRENT_TEST_ID_KEY);
  storage.remove(CURRENT_TEST_CONFIG_KEY);
}

export function configPlanId(config: TestConfig | null): string | undefined {
  const id = config?.plan_id ?? config?.planId;
  return typeof id === 'string' && id.trim() ? id.trim() : undefined;
}

export function configPlanName(config: TestConfig | null): string | undefined {
  const name = config?.planName ?? config?.plan_name ?? config?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}

/** The configured duration in seconds: duration_seconds, else duration (minutes, fallback 1). */
export function configDurationSeconds(config: TestConfig | null): number | undefined {
  if (!config) return undefined;
  if (typeof config.duration_seconds === 'number' && config.duration_seconds > 0)
    return config.duration_seconds;
  return config.duration === undefined ? undefined : minutesToSeconds(config.duration);
}

/** docs/reference/02-running.md §5/§8: a live test needs at least one URL and a tool. */
export function checkStartConfig(config: TestConfig | null): StartFailure | null {
  if (!config || !Array.isArray(config.urls) || config.urls.length === 0) return { code: 'noUrls' };
  if (typeof config.tool !== 'string' || !config.tool.trim()) return { code: 'noTool' };
  return null;
}

function filledPairs(rows: unknown, nameKey: 'key' | 'name'): unknown {
  if (!Array.isArray(rows)) return rows;
  return rows.filter((row: unknown) => {
    if (typeof row !== 'object' || row === null) return false;
    const record = row as Record<string, unknown>;
    const name = record[nameKey];
    const value = record.value;
    return typeof name === 'string' && name.trim() !== '' && typeof value === 'string' && value.trim() !== '';
  });
}

/** The run-test request the result screen sends: the contract's body (src/lib/run-test.ts). */
export type RunTestPayload = RunTestInput;

/**
 * The run-test payload of docs/reference/02-running.md §5: users and duration are numbers, duration a whole number of minutes
 * (fallback 1); parameters with a blank key or value and headers without a name or value are dropped.
 */
export function runPayload(config: TestConfig, userEmail: string | undefined): RunTestPayload {
  const users = Number(config.concurrent_users);
  const minutes = Math.round(Number(config.duration));
  const urls = (config.urls ?? []).map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return entry;
    const record = entry as Record<string, unknown>;
    return {
      ...record,
      ...(record.parameters !== undefined ? { parameters: filledPairs(record.parameters, 'key') } : {}),
      ...(record.headers !== undefined ? { headers: filledPairs(record.headers, 'name') } : {}),
    };
  });
  return {
    plan_id: configPlanId(config),
    planName: configPlanName(config),
    tool: (config.tool ?? '').trim(),
    concurrent_users: Number.isFinite(users) && users > 0 ? users : 1,
    duration: Number.isFinite(minutes) && minutes > 0 ? minutes : 1,
    ...(typeof config.duration_seconds === 'number' && config.duration_seconds > 0
      ? { duration_seconds: config.duration_seconds }
      : {}),
    urls,
    user_email: userEmail,
  };
}
