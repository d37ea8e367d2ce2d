import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formText, parseVerifierResult, verifierSourceOptions } from './pact-adapter.ts';

describe('formText', () => {
  it('writes a comma-separated scope as the client sent it', () => {
    expect(formText({ grant_type: 'client_credentials', scope: 'card,us_account' })).toBe(
      'grant_type=client_credentials&scope=card,us_account',
    );
  });

  it('reads back as the same fields, for any names and values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string()), (fields) => {
        const text = formText(fields);
        expect(Object.fromEntries(new URLSearchParams(text))).toEqual(fields);
      }),
      { numRuns: 300, seed: 28 },
    );
  });
});

describe('verifierSourceOptions', () => {
  it('passes pact files as pact URLs', () => {
    expect(verifierSourceOptions({ kind: 'files', files: ['/p/a.json'] })).toEqual({
      pactUrls: ['/p/a.json'],
    });
  });

  it('builds broker options with selectors, pending pacts and publishing', () => {
    expect(
      verifierSourceOptions({
        kind: 'broker',
        url: 'https://broker.test',
        provider: 'pacu-api',
        token: 't0ken',
        providerVersion: '1.2.3',
        providerBranch: 'main',
        publish: true,
        consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
        enablePending: true,
        includeWipPactsSince: '2024-06-01',
      }),
    ).toEqual({
      provider: 'pacu-api',
      pactBrokerUrl: 'https://broker.test',
      pactBrokerToken: 't0ken',
      providerVersion: '1.2.3',
      providerVersionBranch: 'main',
      publishVerificationResult: true,
      consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
      enablePending: true,
      includeWipPactsSince: '2024-06-01',
    });
  });
});

describe('parseVerifierResult', () => {
  it("reads the FFI's per-interaction results and mismatches", () => {
    const json = JSON.stringify({
      result: false,
      interactionResults: [
        { description: 'list users', duration: '59ms', result: 'OK' },
        { description: 'read a card', duration: '1.5s', result: 'Error' },
      ],
      output: [
        '\nVerifying a pact between \u001b[1mc\u001b[0m and \u001b[1mp\u001b[0m',
        '  list users (0s loading, 59ms verification)',
        '  read a card (0s loading, 1.5s verification)',
        '     Given a virtual card exists',
      ],
      errors: [
        {
          interaction: 'Verifying a pact between c and p Given a virtual card exists - read a card',
          mismatch: {
            type: 'mismatches',
            mismatches: [
              {
                type: 'BodyMismatch',
                path: '$.data',
                mismatch: 'Actual map is missing the following keys: nope',
              },
              { type: 'HeaderMismatch', key: 'content-type', mismatch: "Expected 'a' to match 'b'" },
              { type: 'StatusMismatch', mismatch: 'expected 200 but was 400' },
            ],
          },
        },
        {
          interaction: 'Verifying a pact between c and p - other',
          mismatch: { type: 'error', message: 'connection reset' },
        },
      ],
    });
    expect(parseVerifierResult(json)).toEqual({
      passed: false,
      interactions: [
        {
          description: 'list users',
          passed: true,
          durationMs: 59,
          pending: false,
          consumer: 'c',
          provider: 'p',
          states: [],
        },
        {
          description: 'read a card',
          passed: false,
          durationMs: 1500,
          pending: false,
          consumer: 'c',
          provider: 'p',
          states: ['a virtual card exists'],
        },
      ],
      notices: [],
      errors: [
        {
          interaction: 'Verifying a pact between c and p Given a virtual card exists - read a card',
          problems: [
            '$.data: Actual map is missing the following keys: nope',
            "header content-type: Expected 'a' to match 'b'",
            'StatusMismatch: expected 200 but was 400',
          ],
        },
        { interaction: 'Verifying a pact between c and p - other', problems: ['connection reset'] },
      ],
      pendingErrors: [],
    });
  });
});
