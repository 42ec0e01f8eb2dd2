// ESLint for every workspace: the recommended JavaScript and TypeScript rules, React hooks rules for
// the PWA. `npm test` runs it with --max-warnings 0 (scripts/check.mjs).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // core-wasm/assembly is AssemblyScript (decorators on functions): asc checks it when it builds.
    ignores: ['core-wasm/assembly/**', '**/node_modules/**', '**/dist/**', '**/build/**', 'pwa/.dist-*/**', 'bench/results/**', 'data/**', 'loader/dist/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, Bun: 'readonly' } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `catch {}` is how a best-effort step says "a failure here changes nothing".
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Functions of one job (CONTRIBUTING.md): none over 120 lines, so no component holds more than
    // 150 lines of JSX and logic. Tests and benches read as scripts and are exempt.
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'tests/**', 'bench/**'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // Tests read JSON replies and check them field by field.
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The classic hooks rules. The React Compiler rules of react-hooks 7 (set-state-in-effect and
    // others) are not on: the screens load data in effects, which those rules reject wholesale.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // One contract (docs/architecture.md): the PWA reads the API's types, never its code.
    files: ['pwa/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)api/src/', allowTypeImports: true, message: 'The PWA imports only types from the API (import type … from the api/types module).' },
          ],
        },
      ],
    },
  },
);
