/**
 * The shapes a Postman script runs with and gives back, and the sandbox's limits
 * (docs/adr/0028-postman-sandbox.md): shared by the VM (quickjs-vm.ts), the warm sandbox of a virtual
 * user (warm-sandbox.ts) and its callers.
 */
export interface SandboxHeader {
  key: string;
  value: string;
}
export interface SandboxRequest {
  name: string;
  /** The request's description (the legacy `request.description`); absent without one, as in Postman. */
  description?: string;
  method: string;
  url: string;
  headers: SandboxHeader[];
  body?: string;
}
export interface SandboxResponse {
  code: number;
  status: string;
  headers: SandboxHeader[];
  body: string;
  responseTime: number;
  responseSize: number;
}
export interface SandboxVariables {
  globals: Record<string, string>;
  collection: Record<string, string>;
  environment: Record<string, string>;
  data: Record<string, string>;
  local: Record<string, string>;
}
export interface ScriptRun {
  event: 'prerequest' | 'test';
  source: string;
  request: SandboxRequest;
  /**
   * Test scripts only. Absent in a test script when the request got no answer: `pm.response` is then
   * empty (its code, status, body and time undefined, no headers), as Newman runs it.
   */
  response?: SandboxResponse;
  /** Not mutated; the outcome carries the new values. */
  variables: SandboxVariables;
  iteration: number;
  iterationCount: number;
  /**
   * Test scripts: the cookies of the user's jar for the request's URL, read by pm.cookies; absent,
   * pm.cookies says it is not available.
   */
  cookies?: { name: string; value: string }[];
}
export interface ScriptTest {
  name: string;
  passed: boolean;
  error?: string;
  skipped?: boolean;
}
export interface ScriptLog {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}
export interface ScriptOutcome {
  tests: ScriptTest[];
  variables: SandboxVariables;
  /** A pre-request script may change url, headers, body. */
  request: SandboxRequest;
  /** postman.setNextRequest(name) / (null) = stop; absent = not called. */
  nextRequest?: string | null;
  logs: ScriptLog[];
  error?: { kind: 'syntax' | 'runtime' | 'timeout' | 'memory'; message: string; line?: number };
}
export interface SandboxHost {
  sendRequest(req: SandboxRequest): Promise<SandboxResponse | { error: string }>;
}
export interface SandboxLimits {
  timeMs?: number;
  memoryBytes?: number;
}

export const DEFAULT_TIME_MS = 1_000;
export const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;
/** console output kept per script: entries, and characters per entry. */
export const MAX_LOGS = 100;
export const MAX_LOG_CHARS = 2_048;
