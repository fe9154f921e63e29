// Validates an OpenAPI document (read from stdin) against the official OpenAPI schemas.
// Runs as a plain ES module under Node, outside Jest's module system, since the validator is ESM-only.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const result = await new Validator().validate(JSON.parse(input));
  process.stdout.write(JSON.stringify(result));
});
