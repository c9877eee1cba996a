import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';

/** The end-to-end suites drive the whole system, its customer SDK included, in tests and shipped code alike. */
const E2E_DEPENDENCIES = {
  sourceTag: 'type:e2e',
  onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:kit', 'type:testing', 'type:sdk'],
};

export default [
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/coverage',
      '.nx',
      '.local',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...nx.configs['flat/base'],
  // The console's components: the rules of hooks (a hook called conditionally breaks React's state).
  { ...reactHooks.configs.flat.recommended, files: ['apps/console/**/*.tsx', 'apps/console/**/*.ts'] },
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            // The customer SDK (libs/sdk) stands alone: it is generated from the published document only.
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [] },
            // The console uses nothing but the public API: the document's types, through the SDK's schema.
            { sourceTag: 'type:console', onlyDependOnLibsWithTags: ['type:sdk'] },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contracts'] },
            // The service kit puts the plumbing together into a whole service; services are built on it.
            { sourceTag: 'type:kit', onlyDependOnLibsWithTags: ['type:contracts', 'type:infra'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:infra'] },
            E2E_DEPENDENCIES,
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:kit', 'type:testing'],
            },
            {
              sourceTag: 'type:bench',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:kit', 'type:testing'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Used where an invariant was just checked (array bounds, map membership); strict null checks stay on.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Tests of a library may use the other plumbing and the testing library; shipped code may not. The
    // kit's test harness (`@cms/service-kit/testing`) is for tests only.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts', 'libs/service-kit/src/testing/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:sdk'] },
            {
              sourceTag: 'type:infra',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:testing'],
            },
            {
              sourceTag: 'type:kit',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:testing'],
            },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:infra'] },
            E2E_DEPENDENCIES,
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:kit', 'type:testing'],
            },
            {
              sourceTag: 'type:bench',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:kit', 'type:testing'],
            },
          ],
        },
      ],
    },
  },
  prettier,
];
