import { defineConfig } from 'vitest/config';

// One vitest run covers the unit and API tests of every workspace; browser tests live in e2e/ (Playwright).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
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
          include: ['apps/server/test/**/*.test.ts', 'apps/server/src/db/**/*.test.ts'],
          exclude: [
            // Pure unit tests of the intent parser: no store.
            'apps/server/test/assistant-intents.test.ts',
            // `npm run backup` copies the SQLite file (VACUUM INTO); on PostgreSQL it says to use pg_dump.
            'apps/server/test/backup.test.ts',
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
