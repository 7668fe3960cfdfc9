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
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Import direction: contract <- api, harness <- web, cli; nothing imports cli; web only
      // reaches into api through api/contract.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './web', from: './api', except: ['./contract'], message: 'web may import only api/contract' },
            { target: './web', from: './cli', message: 'nothing imports cli' },
            { target: './api', from: './cli', message: 'nothing imports cli' },
            { target: './harness', from: './cli', message: 'nothing imports cli' },
            { target: './harness', from: './api', except: ['./contract'], message: 'harness may import only api/contract' },
            { target: './api/contract', from: './api', except: ['./contract'], message: 'the contract is pure' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', crypto: 'readonly' } },
  },
);
