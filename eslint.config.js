// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The dependency direction of STYLE.md, as lint rules:
 *   plan ← converters, engine, ui-runner ← server;  plan, converters ← web.
 * Packages never import apps, and browser-safe packages never import node:*.
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
        'The web app uses only browser-safe packages (@aqa/plan, @aqa/converters) — see STYLE.md.',
      ),
    },
  },
  {
    files: ['packages/plan/**'],
    rules: forbid(
      [...APPS, ...NODE_ONLY, ...NODE_BUILTINS, '@aqa/converters', '@aqa/converters/*'],
      'packages/plan is the base: browser-safe, and it imports no other package of ours — see STYLE.md.',
    ),
  },
  {
    files: ['packages/converters/**'],
    rules: forbid(
      [...APPS, ...NODE_ONLY, ...NODE_BUILTINS],
      'Browser-safe packages import no node:* module, no Node-only package and no app — see STYLE.md.',
    ),
  },
  {
    files: ['packages/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['packages/engine/**', 'packages/ui-runner/**'],
    rules: forbid(APPS, 'Packages never import apps — see STYLE.md.'),
  },
);
