import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { DEFAULT_SPEC_FILE } from '../load-spec.ts';

const HEADER = '// Generated from spec/openapi.yaml by `npm run generate:types`. Do not edit.\n\n';

/** The TypeScript text openapi-typescript makes of spec/openapi.yaml. */
export async function renderApiTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(DEFAULT_SPEC_FILE), { alphabetize: false, exportType: true });
  return HEADER + astToString(ast);
}
