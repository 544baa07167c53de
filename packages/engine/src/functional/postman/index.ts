/** Postman scripts run in a QuickJS sandbox (docs/adr/0028-postman-sandbox.md). */
export * from './sandbox';
export { fetchSandboxHost } from './fetch-host';
