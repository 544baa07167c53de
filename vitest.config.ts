import { defineConfig } from 'vitest/config';

// One vitest run covers the unit and API tests of every workspace; browser tests live in e2e/ (Playwright).
export default defineConfig({
  test: {
    // Vitest's default in run mode is one worker fewer than the cores: one on a 2-core machine. Most of
    // the suite's time is spent waiting — on real servers, agents, tools and targets it starts and on
    // the seconds of the runs it measures — so two workers halve the wall time without starving them.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            // Suites beside their fixtures, outside src (packages/engine/test/postman-parity).
            'packages/*/test/**/*.test.ts',
            'apps/server/{src,test}/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          testTimeout: 20_000,
          // Throw-away Redis (and PostgreSQL) servers for the store and scale-out tests.
          globalSetup: ['scripts/test-services/global-setup.mjs'],
        },
      },
      {
        // The server suites again on PostgreSQL (docs/adr/0019-postgresql.md "Tests"): each test server
        // gets a database of its own in the throw-away cluster of the global set-up. Suites that touch no
        // store are left to the node project; the ones left out below say why.
        test: {
          name: 'node-postgres',
          environment: 'node',
          include: [
            'apps/server/test/**/*.test.ts',
            'apps/server/src/db/**/*.test.ts',
            'scripts/add-account.test.ts',
          ],
          // Left out: suites whose time goes to tools, browsers, processes or request checks, not to the
          // store; what they store goes through the same repositories the suites kept here cover.
          exclude: [
            // Pure unit tests of the intent parser: no store.
            'apps/server/test/assistant-intents.test.ts',
            // `npm run backup` copies the SQLite file (VACUUM INTO); on PostgreSQL it says to use pg_dump.
            'apps/server/test/backup.test.ts',
            // The aqa CLI over HTTP: the runs it starts are runs.test.ts's.
            'apps/server/test/cli-remote.test.ts',
            // JMeter, Locust and k6 themselves, and their detection: the runs are stored as the built-in's.
            'apps/server/test/runs-in-tools.test.ts',
            // The same tools following a profile, flows and test data: stored through the same paths.
            'apps/server/test/runs-tools-profile.test.ts',
            // JMeter 2.13, Locust and the built-in engine on one target: versions and error samples, not the store.
            'apps/server/test/tool-versions.test.ts',
            'apps/server/test/tool-check.test.ts',
            // The tools of a killed server ending with it: processes and a target, nothing stored.
            'apps/server/test/tool-watchdog.test.ts',
            // Chromium: the screenshots' bytes on PostgreSQL are proven in src/db/store.test.ts.
            'apps/server/test/ui-runs.test.ts',
            // Upload, request and target checks that answer before anything is stored; in-memory limits.
            'apps/server/test/bad-uploads.test.ts',
            'apps/server/test/import-queue.test.ts',
            'apps/server/test/upload-limits.test.ts',
            'apps/server/test/validate.test.ts',
            'apps/server/test/api-docs.test.ts',
            'apps/server/test/target-guard.test.ts',
            'apps/server/test/rate-limits.test.ts',
            'apps/server/test/functional-file-scripts.test.ts',
            // A server process's memory ceiling (docs/adr/0024-memory-bounds.md): what it stores is
            // functional-runs.test.ts's; the memory it measures is the process's, not the store's.
            'apps/server/test/memory-bounds.test.ts',
            // Network namespaces of fixed names and addresses (one run at a time); what it stores is
            // agents.test.ts's, which runs here.
            'apps/server/test/agents-netns.test.ts',
            // Locust's own master and workers: what the run stores is as agents.test.ts's and
            // runs-in-tools.test.ts's.
            'apps/server/test/agents-locust.test.ts',
            // Flows, test data and abort thresholds on agents: what the runs store is as
            // runs-flows/runs-test-data/runs-abort.test.ts's and agents.test.ts's.
            'apps/server/test/agents-load-features.test.ts',
            // Redirect canaries through every runner (tools, a browser, agents): what they store is the
            // runs' own, covered above.
            'apps/server/test/redirects-guard.test.ts',
            'apps/server/test/agents-redirects.test.ts',
          ],
          env: { AQA_TEST_DB: 'postgres' },
          testTimeout: 20_000,
          globalSetup: ['scripts/test-services/global-setup.mjs'],
        },
      },
      {
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
    ],
  },
});
