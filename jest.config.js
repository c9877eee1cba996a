// One jest run over the whole workspace: `unit` needs nothing, `integration` needs the local stack
// (deploy/local/stack.sh) and runs its suites one at a time because they share one broker, `deploy`
// needs kubectl (it renders deploy/k8s).
const preset = require('./jest.preset');

const [swcJest, swcOptions] = preset.transform['^.+\\.ts$'];

module.exports = {
  projects: [
    {
      ...preset,
      displayName: 'unit',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/bench'],
      testMatch: ['**/*.spec.ts'],
    },
    {
      ...preset,
      displayName: 'integration',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tests'],
      testMatch: ['**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/jest.integration-setup.js'],
    },
    {
      ...preset,
      displayName: 'deploy',
      rootDir: __dirname,
      roots: ['<rootDir>/tests/k8s'],
      testMatch: ['**/*.spec.ts'],
      // kubernetes-models ships ES modules only: `import()` stays as written so jest loads them as such.
      transform: {
        '^.+\\.ts$': [swcJest, { ...swcOptions, module: { ...swcOptions.module, ignoreDynamic: true } }],
      },
    },
  ],
};
