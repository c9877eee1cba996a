// One jest run over the whole workspace: `unit` needs nothing, `integration` needs the local stack
// (deploy/local/stack.sh) and runs its suites one at a time because they share one broker.
const preset = require('./jest.preset');

module.exports = {
  projects: [
    {
      ...preset,
      displayName: 'unit',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs'],
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
  ],
};
