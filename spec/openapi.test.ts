import { readFile } from 'node:fs/promises';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE } from './index.ts';

const { Spectral, Document } = spectralCore;

async function lint(text: string) {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'all']] });
  return spectral.run(new Document(text, spectralParsers.Yaml, DEFAULT_SPEC_FILE));
}

describe("Spectral's OpenAPI ruleset", () => {
  it('finds no errors and no warnings in spec/openapi.yaml', async () => {
    const results = await lint(await readFile(DEFAULT_SPEC_FILE, 'utf8'));
    const findings = results
      .filter((result) => result.severity <= 1)
      .map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
    expect(findings).toEqual([]);
  });

  it('does report an error when an operation refers to a schema that does not exist', async () => {
    const text = await readFile(DEFAULT_SPEC_FILE, 'utf8');
    const broken = text.replace(
      '#/components/schemas/UsdTransferRequest"',
      '#/components/schemas/NoSuchSchema"',
    );
    const results = await lint(broken);
    expect(results.some((result) => result.severity === 0)).toBe(true);
  });
});
