import { describe, expect, it } from 'vitest';
import { credentialValue, readRecordedCredential, WRONG_SECRET_SUFFIX } from './recorded-credential.ts';
import { createRedactor } from './redaction.ts';

const CLIENT = { clientId: 'shop', clientSecret: 's3cr:t+/=' };
const OWN = { clientId: 'replayer', clientSecret: 'fresh-secret', token: 'fresh-token' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const decoded = (value: string) => Buffer.from(value.replace(/^Basic /, ''), 'base64').toString('utf8');

describe('a recorded Authorization, redacted, sent again with the sender’s own credentials', () => {
  const redactor = createRedactor(CLIENT);
  const recorded = (value: string) => readRecordedCredential(redactor.redact(value));

  it('the right client: the sender’s client', () => {
    const value = credentialValue(recorded(basic(CLIENT.clientId, CLIENT.clientSecret)), OWN);
    expect(decoded(value)).toBe('replayer:fresh-secret');
  });

  it('the right client with a suffix on its secret: the sender’s secret with the same suffix', () => {
    const value = credentialValue(recorded(basic(CLIENT.clientId, `${CLIENT.clientSecret}-wrong`)), OWN);
    expect(decoded(value)).toBe('replayer:fresh-secret-wrong');
  });

  it('the client with another secret: a secret that is not the sender’s', () => {
    const value = credentialValue(recorded(basic(CLIENT.clientId, 'guess')), OWN);
    expect(decoded(value)).toBe(`replayer:fresh-secret${WRONG_SECRET_SUFFIX}`);
  });

  it('an issued token: the sender’s token; a credential that never was a secret: as recorded', () => {
    expect(credentialValue(recorded('Bearer eyJ.issued.token'), OWN)).toBe('Bearer fresh-token');
    expect(credentialValue(recorded('Bearer pacu-never-issued-1'), OWN)).toBe('Bearer pacu-never-issued-1');
  });

  it('a Basic credential the redactor could not name counts as the right one', () => {
    const blind = createRedactor();
    const value = credentialValue(readRecordedCredential(blind.redact(basic('x', 'y'))), OWN);
    expect(decoded(value)).toBe('replayer:fresh-secret');
  });
});
