import { describe, expect, it } from 'vitest';
import { rememberForgotten } from './forgotten-secrets.ts';
import { createRedactor } from './redaction.ts';

const tokenNumber = (n: number): string => `issued-token-${String(n).padStart(6, '0')}`;

/** A redactor that learned `count` issued tokens, the first ones forgotten past its limit of 1,024. */
function learnTokens(count: number) {
  const redactor = createRedactor();
  const forgotten = rememberForgotten(redactor, 3);
  for (let n = 0; n < count; n++) redactor.observe({ json: { data: { access_token: tokenNumber(n) } } });
  return { redactor, forgotten };
}

describe('rememberForgotten', () => {
  it('redacts what the redactor forgot, until as many items as it keeps were kept since', () => {
    const { redactor, forgotten } = learnTokens(1030);
    const text = `first ${tokenNumber(0)}, sixth ${tokenNumber(5)}, seventh ${tokenNumber(6)}`;
    // The redactor alone forgot the first six; the seventh it still knows.
    expect(redactor.redactText(text)).toContain(tokenNumber(0));
    expect(redactor.redactText(text)).not.toContain(tokenNumber(6));
    expect(forgotten.scrub(text)).toBe('first [redacted], sixth [redacted], seventh issued-token-000006');
    expect(forgotten.scrubAll({ list: [text], n: 1 })).toEqual({ list: [forgotten.scrub(text)], n: 1 });
    forgotten.kept();
    forgotten.kept();
    forgotten.kept();
    // The item whose learning made it forget, kept after, may hold them: it is counted too.
    expect(forgotten.scrub(text)).not.toContain(tokenNumber(0));
    // Three newer items replaced every one kept before and that one: nothing kept holds them.
    forgotten.kept();
    expect(forgotten.scrub(text)).toBe(text);
  });

  it('hands back the very value when nothing was forgotten', () => {
    const { forgotten } = learnTokens(10);
    const value = { text: tokenNumber(1) };
    expect(forgotten.scrubAll(value)).toBe(value);
    expect(forgotten.scrub(value.text)).toBe(value.text);
  });

  it('keeps a secret forgotten twice until the items kept before the second time are gone', () => {
    const { redactor, forgotten } = learnTokens(1030);
    const text = `echo ${tokenNumber(0)}`;
    forgotten.kept();
    // Learned again (it was forgotten), then forgotten again by 1,024 newer ones.
    redactor.observe({ json: { data: { access_token: tokenNumber(0) } } });
    for (let n = 2000; n < 3024; n++) redactor.observe({ json: { data: { access_token: tokenNumber(n) } } });
    forgotten.kept();
    forgotten.kept();
    forgotten.kept();
    // Four kept since the first time: that one is gone, the second keeps it.
    expect(forgotten.scrub(text)).toBe('echo [redacted]');
    forgotten.kept();
    forgotten.kept();
    expect(forgotten.scrub(text)).toBe(text);
  });

  it('waits for the items on their way when it forgot (ended, not yet kept)', () => {
    const redactor = createRedactor();
    const forgotten = rememberForgotten(redactor, 2);
    forgotten.arriving();
    forgotten.arriving();
    for (let n = 0; n < 1025; n++) redactor.observe({ json: { data: { access_token: tokenNumber(n) } } });
    const text = `echo ${tokenNumber(0)}`;
    // Two on their way when it forgot, then two and the one that made it forget: five kept.
    for (let n = 0; n < 4; n++) forgotten.kept();
    expect(forgotten.scrub(text)).toBe('echo [redacted]');
    forgotten.kept();
    expect(forgotten.scrub(text)).toBe(text);
  });

  it('lets thousands go at once and goes on remembering the ones forgotten after', () => {
    const redactor = createRedactor();
    const forgotten = rememberForgotten(redactor, 1);
    for (let n = 0; n < 3100; n++) redactor.observe({ json: { data: { access_token: tokenNumber(n) } } });
    expect(forgotten.scrub(tokenNumber(0))).toBe('[redacted]');
    forgotten.kept();
    forgotten.kept();
    expect(forgotten.scrub(`${tokenNumber(0)} ${tokenNumber(2075)}`)).toBe(
      `${tokenNumber(0)} ${tokenNumber(2075)}`,
    );
    // The redactor now holds 2076-3099; five more push out 2076-2080.
    for (let n = 5000; n < 5005; n++) redactor.observe({ json: { data: { access_token: tokenNumber(n) } } });
    expect(forgotten.scrub(`${tokenNumber(2076)} ${tokenNumber(2081)}`)).toBe(
      `[redacted] ${tokenNumber(2081)}`,
    );
  });
});
