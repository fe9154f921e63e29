// The compose stack test (test/compose/*.compose-spec.ts): real Docker, minutes long, so kept out of
// `npm test`; run it with `npm run test:compose`. Same transform as the main suite.
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/compose'],
  testMatch: ['**/*.compose-spec.ts'],
  testTimeout: 5 * 60_000,
};
