/** Postman scripts run in a QuickJS sandbox (docs/adr/0028-postman-sandbox.md). */
export {
  PostmanSandbox,
  runPostmanScript,
  type SandboxHeader,
  type SandboxHost,
  type SandboxLimits,
  type SandboxRequest,
  type SandboxResponse,
  type SandboxVariables,
  type ScriptLog,
  type ScriptOutcome,
  type ScriptRun,
  type ScriptTest,
} from './sandbox';
export { fetchSandboxHost } from './fetch-host';
