// NestJS 12 and a few of its dependencies ship ES modules only: Jest runs in CommonJS mode and lets
// @swc/jest transform those packages too (see docs/architecture.md).
const esmOnly = ['@nestjs', 'cookie', 'file-type', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras', '@borewit', 'load-esm'];

/** swc's options for TypeScript; the pages' templates (.tsx) are JSX for Preact, as tsconfig.json says. */
const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, ...(tsx ? { react: { runtime: 'automatic', importSource: 'preact' } } : {}) },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.tsx$': swc(true),
    '^.+\\.(t|j|mj)s$': swc(false),
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  testTimeout: 60000,
};
