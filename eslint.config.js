// @ts-check
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', 'data/', '.react-router/', 'coverage/', 'reports/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    // Imports are written without extensions (bundler resolution): resolve them as TypeScript, so
    // the import zones below see every file.
    settings: { 'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Import direction (docs/architecture.md): everything may import contract/, which imports
      // nothing of ours; web never imports api; api reaches the site only through the built server
      // entry; cli imports contract, harness and one store/service entry (api/operations.ts);
      // harness imports contract only; nothing imports cli.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './contract', from: ['./api', './web', './cli', './harness', './scripts', './tests'], message: 'the contract imports nothing of ours' },
            { target: './web', from: ['./api', './cli'], message: 'web never imports api or cli (shared types live in contract/)' },
            { target: './api', from: ['./web', './cli', './harness'], message: 'api reaches the site only through the built server entry' },
            { target: './cli', from: './api', except: ['./operations.ts'], message: 'cli reaches the server side only through api/operations.ts' },
            { target: './cli', from: './web', message: 'cli never imports web' },
            { target: './harness', from: ['./api', './web', './cli'], message: 'harness imports the contract only' },
            { target: '.', from: './api/main.ts', message: 'api/main.ts starts the server (on PORT, in DATA_DIR) when imported: import its settings from api/server-env.ts' },
          ],
        },
      ],
    },
  },
  {
    // The contract runs in the browser, the CLI and the server alike: no Node built-ins.
    files: ['contract/**/*.ts'],
    ignores: ['contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(node:|fs$|path$|crypto$|os$|url$)', message: 'the contract is pure: no Node built-ins' }] }],
    },
  },
  {
    // The CLI reads the world only through its io (cli/io.ts): the tests run its commands in their own
    // process with another io (decision 0013), so a direct read would differ from a real run unseen.
    files: ['cli/**/*.ts', 'harness/**/*.ts'],
    ignores: ['cli/io.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['env', 'cwd', 'stdout', 'stderr', 'stdin', 'exit', 'exitCode', 'argv', 'on', 'once'].map((property) => ({
          object: 'process',
          property,
          message: 'the CLI reads and writes the world through its io (cli/io.ts), which the tests replace',
        })),
      ],
    },
  },
  {
    // Test files share a worker's modules (vitest.config.ts, SHARED_MODULES): a mocked module, a stubbed
    // global or environment would leak into the next file. Inject what a test must replace instead.
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv', 'resetModules'].map((property) => ({
          object: 'vi',
          property,
          message: 'test files share their modules (vitest.config.ts): inject the dependency instead of replacing a module or a global',
        })),
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', crypto: 'readonly', FormData: 'readonly', Blob: 'readonly' } },
  },
);
