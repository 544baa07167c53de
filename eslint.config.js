// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The dependency direction of docs/style.md, as lint rules:
 *   plan ← converters ← contract;  plan, converters, contract ← engine ← server;  plan, converters, contract ← web.
 * Packages never import apps, and browser-safe packages never import node:*. Only packages that exist are
 * named here; a new one gets its place when it is added.
 */
const APPS = ['@aqa/server', '@aqa/server/*', '@aqa/web', '@aqa/web/*'];
const NODE_ONLY = ['@aqa/engine', '@aqa/engine/*', '@aqa/ui-runner', '@aqa/ui-runner/*'];
const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'http',
  'https',
  'net',
  'child_process',
  'worker_threads',
  'os',
];

/** @param {string[]} patterns @param {string} why */
const forbid = (patterns, why) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message: why }] }],
});

const BLOCKING_DIALOG_WHY = {
  alert: 'Use useNotice() from @/components/notices instead of the blocking alert().',
  confirm: 'Use useConfirm() from @/components/confirm-dialog instead of the blocking confirm().',
  prompt: 'Ask in the page (a field or a dialog) instead of the blocking prompt().',
};
const noBlockingDialogs = {
  'no-restricted-globals': [
    'error',
    ...Object.entries(BLOCKING_DIALOG_WHY).map(([name, message]) => ({ name, message })),
  ],
  'no-restricted-properties': [
    'error',
    ...['window', 'globalThis', 'self'].flatMap((object) =>
      Object.entries(BLOCKING_DIALOG_WHY).map(([property, message]) => ({ object, property, message })),
    ),
  ],
};

/**
 * Folder boundaries inside the apps, as lint rules. They use a rule instance of their own
 * (@typescript-eslint/no-restricted-imports), so they add to the package rules above instead of replacing them.
 *
 * Web: a feature (apps/web/src/features/<name>/) uses another feature only through that feature's top-level
 * files (its index.ts, or e.g. results/charts.ts), never the folders inside it; a relative import never
 * climbs out of the feature's own folder; features do not import the app (router, shell): screen ids and
 * paths are in @/lib/screens. Some features do not use each other at all (FEATURES_APART). Shared code
 * (components, lib, i18n) imports no feature and not the app.
 * Server: routes → services → repositories → db. Routes call services, never a repository or the database;
 * services (every folder under services/), the replicas' code (cluster/) and authentication (auth/) never
 * import routes, nor a value from Kysely or db/ (types only); repositories import neither routes nor services.
 * Only repositories/ and db/ build SQL queries (docs/style.md "Layout").
 */
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/**
 * Features that do not use each other at all, not even through the public surface: the performance editor
 * (plans) and the functional editors (functional) share the call editor (call-editor) instead, which uses
 * no other feature, so neither editor's change can reach into the other (docs/style.md "Layout").
 */
const FEATURES_APART = {
  plans: ['functional'],
  functional: ['plans'],
  'call-editor': WEB_FEATURES.filter((name) => name !== 'call-editor'),
};
/** Folder levels inside a feature with a relative-import limit of their own; files deeper share the last. */
const FEATURE_DEPTHS = 5;
/** Tests, and a feature's test helpers (features/<name>/test/), which tests of other features may share. */
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/features/*/test/**'];

/** @param {{ regex: string, message: string }[]} patterns */
const boundary = (patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });

/**
 * @param {string} feature  the feature's folder name
 * @param {number} depth  how many folders below the feature's own folder the file is
 * @param {boolean} test  tests may import the app (they render it, or swap a screen or a data source), and
 *   another feature's test helpers (its test/ folder)
 */
function featurePatterns(feature, depth, test) {
  const patterns = [
    {
      regex: `^@/features/(?!${feature}/)[^/]+/${test ? '(?!test/)' : ''}[^/]+/`,
      message:
        "Another feature's internals: import its public surface (@/features/<name>, i.e. its index.ts, or another top-level file of it).",
    },
    {
      regex: `^@/features/${feature}(/index)?$`,
      message:
        "Inside a feature, import its files directly: the feature's own index.ts would make an import cycle.",
    },
    {
      regex: `^\\.\\.(/\\.\\.){${depth}}(/|$)`,
      message:
        "A relative import out of the feature's folder: use @/… (another feature only through its public surface).",
    },
  ];
  const apart = FEATURES_APART[/** @type {keyof typeof FEATURES_APART} */ (feature)];
  if (apart && apart.length > 0) {
    patterns.push({
      regex: `^@/features/(${apart.join('|')})(/|$)`,
      message: `Features kept apart: ${feature} does not use ${apart.join(', ')}. What the plan editors share is in @/features/call-editor, which uses no other feature.`,
    });
  }
  if (!test) {
    patterns.push({
      regex: '^@/app(/|$)',
      message: 'Features do not import the app (router, shell): screen ids and paths are in @/lib/screens.',
    });
  }
  return patterns;
}

/** Kysely's query builders: a call of one outside repositories/ and db/ is a query in the wrong layer. */
const KYSELY_QUERIES = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

/**
 * @typedef {{ regex: string, message: string, allowTypeImports?: boolean }} LayerPattern
 * @param {string[]} forbidden  folders of apps/server/src  @param {string} message
 * @returns {LayerPattern}
 */
const importing = (forbidden, message) => ({ regex: `(^|/)(${forbidden.join('|')})/`, message });

/**
 * Kysely and the database (its handle, dialect, migrations) are used by repositories/ and db/ only; below
 * routes the rest may name their types (a row's shape from db/schema, `Db` to make a repository) and fold
 * text as plan search does (db/search-text). Above the repositories, a value from Kysely or db/ is a query
 * about to be written in the wrong layer.
 * @type {LayerPattern[]}
 */
const NO_DATABASE = [
  { regex: '^kysely(/|$)', message: 'Only repositories/ and db/ use Kysely (import its types only).' },
  {
    regex: '(^|/)db/(?!search-text$)',
    message: 'Only repositories/ and db/ use the database: call a repository (import db/ types only).',
  },
].map((pattern) => ({ ...pattern, allowTypeImports: true }));

/** @param {string} layer  a folder of apps/server/src (with every folder in it) @param {LayerPattern[]} patterns */
const serverLayer = (layer, patterns) => ({
  files: [`apps/server/src/${layer}/**/*.ts`],
  rules: boundary(patterns),
});

function folderBoundaries() {
  const blocks = [];
  for (const feature of WEB_FEATURES) {
    for (let depth = 0; depth <= FEATURE_DEPTHS; depth++) {
      const below = (/** @type {number} */ levels) =>
        `${'*/'.repeat(levels)}${depth === FEATURE_DEPTHS ? '**/' : ''}`;
      const dir = `apps/web/src/features/${feature}/${below(depth)}`;
      // The feature's test helpers: test/ is the first of the `depth` folders.
      const helpers =
        depth > 0 ? [`apps/web/src/features/${feature}/test/${below(depth - 1)}*.{ts,tsx}`] : [];
      blocks.push(
        {
          files: [`${dir}*.{ts,tsx}`],
          ignores: TESTS,
          rules: boundary(featurePatterns(feature, depth, false)),
        },
        {
          files: [`${dir}*.test.{ts,tsx}`, ...helpers],
          rules: boundary(featurePatterns(feature, depth, true)),
        },
      );
    }
  }
  blocks.push(
    {
      files: ['apps/web/src/{components,lib,i18n}/**/*.{ts,tsx}'],
      ignores: TESTS,
      rules: boundary([
        {
          regex: '^@/(features|app)(/|$)',
          message:
            'Shared code (components, lib, i18n) imports no feature and not the app: move what both need here.',
        },
      ]),
    },
    serverLayer('routes', [
      importing(
        ['repositories', 'db'],
        'Routes call services, never a repository or the database (routes → services → repositories).',
      ),
    ]),
    serverLayer('services', [
      importing(['routes'], 'Services do not import routes (routes → services → repositories).'),
      ...NO_DATABASE,
    ]),
    serverLayer('cluster', [
      importing(['routes'], 'The replicas code does not import routes (routes → services → repositories).'),
      ...NO_DATABASE,
    ]),
    serverLayer('auth', [
      importing(['routes'], 'Authentication does not import routes (routes → services → repositories).'),
      ...NO_DATABASE,
    ]),
    {
      files: ['apps/server/src/**/*.ts'],
      ignores: ['apps/server/src/repositories/**', 'apps/server/src/db/**', '**/*.test.ts'],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: `CallExpression[callee.property.name=/^(${KYSELY_QUERIES.join('|')})$/]`,
            message:
              'SQL queries live in apps/server/src/repositories (routes → services → repositories → db).',
          },
        ],
      },
    },
    serverLayer('repositories', [
      importing(
        ['routes', 'services'],
        'Repositories import neither routes nor services (routes → services → repositories).',
      ),
    ]),
  );
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '**/__snapshots__/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Scripts and tests talk to the person running them (e.g. why a tool's test is skipped).
    files: ['scripts/**', '**/build.mjs', 'e2e/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(
        [...APPS.filter((p) => !p.startsWith('@aqa/web')), ...NODE_ONLY, ...NODE_BUILTINS],
        'The web app uses only browser-safe packages (@aqa/plan, @aqa/converters, @aqa/contract) — see docs/style.md.',
      ),
      // The browser's blocking dialogs stop the page and are not in the app's language or style.
      ...noBlockingDialogs,
    },
  },
  {
    // The web app's tests run in Node (vitest) and may read files, e.g. to check the app's own imports.
    files: ['apps/web/**/*.test.ts', 'apps/web/**/*.test.tsx'],
    rules: forbid(
      [...APPS.filter((p) => !p.startsWith('@aqa/web')), ...NODE_ONLY],
      "The web app's tests use only browser-safe packages of ours (@aqa/plan, @aqa/converters, @aqa/contract) — see docs/style.md.",
    ),
  },
  {
    files: ['packages/plan/**'],
    rules: forbid(
      [...APPS, ...NODE_ONLY, ...NODE_BUILTINS, '@aqa/converters', '@aqa/converters/*'],
      'packages/plan is the base: browser-safe, and it imports no other package of ours — see docs/style.md.',
    ),
  },
  {
    files: ['packages/contract/**'],
    rules: forbid(
      [...APPS, ...NODE_ONLY, ...NODE_BUILTINS],
      'packages/contract is browser-safe (the web imports it): no node:* module, no Node-only package, no app — see docs/style.md.',
    ),
  },
  {
    files: ['packages/converters/**'],
    rules: forbid(
      [...APPS, ...NODE_ONLY, ...NODE_BUILTINS],
      'Browser-safe packages import no node:* module, no Node-only package and no app — see docs/style.md.',
    ),
  },
  {
    files: ['packages/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Every other package (the engine, and any added later) is Node-only, and never imports an app either.
    files: ['packages/**'],
    ignores: ['packages/plan/**', 'packages/converters/**', 'packages/contract/**'],
    rules: forbid(APPS, 'Packages never import apps — see docs/style.md.'),
  },
  ...folderBoundaries(),
);
