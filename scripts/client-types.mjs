// Generates the client's request and response types from the service's OpenAPI document:
// `npm run client:types` (builds first). A test compares the committed file with this output.
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const CLIENT_TYPES_FILE = new URL('../client/src/generated/openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from the service's OpenAPI document by \`npm run client:types\`; do not edit.
 * A test fails when this file and the document differ.
 */

`;

/** The TypeScript declarations for `document`, exactly as committed. */
export async function renderClientTypes(document) {
  const nodes = await openapiTS(document, { silent: true, alphabetize: true });
  return HEADER + astToString(nodes);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { exportOpenApiDocument } = await import('../dist/openapi/openapi-export.js');
  await writeFile(CLIENT_TYPES_FILE, await renderClientTypes(await exportOpenApiDocument()));
  process.stdout.write(`Wrote ${CLIENT_TYPES_FILE.pathname}\n`);
}
