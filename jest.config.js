// NestJS 12 and a few of its dependencies ship ES modules only: Jest runs in CommonJS mode and lets
// @swc/jest transform those packages too (see docs/architecture.md).
const esmOnly = ['@nestjs', 'cookie', 'file-type', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras', '@borewit', 'load-esm'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  testTimeout: 60000,
};
