import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownSecrets } from './known-secrets.ts';

/** What the redactor did before: one pattern of every secret, longest first. */
function byOnePattern(secrets: readonly string[], text: string, standIn: (secret: string) => string): string {
  if (secrets.length === 0) return text;
  const pattern = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  return text.replace(new RegExp(pattern, 'g'), standIn);
}

// Secrets from a small alphabet (with regex specials) so they overlap, share first characters and
// start inside one another; texts made of pieces of them and of other characters.
const ALPHABET = ['a', 'b', 'c', '.', '*', '(', '\\', '$', 'é', '😀'];
const secretArb = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 4, maxLength: 9 })
  .map((c) => c.join(''));
const standIn = (secret: string): string => `<${secret.length}>`;

describe('KnownSecrets', () => {
  it('replaces as one pattern of them all, longest first, would: few secrets and many', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(secretArb, { minLength: 0, maxLength: 80 }),
        fc.array(fc.oneof(secretArb, fc.constantFrom(...ALPHABET, 'x', ' ', '"')), { maxLength: 40 }),
        (secrets, pieces) => {
          const known = new KnownSecrets();
          for (const secret of secrets) known.add(secret);
          const text = pieces.join('');
          expect(known.replace(text, standIn)).toBe(byOnePattern(secrets, text, standIn));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forgets a deleted secret, and keeps the rest findable', () => {
    fc.assert(
      fc.property(fc.uniqueArray(secretArb, { minLength: 1, maxLength: 60 }), fc.nat(), (secrets, pick) => {
        const known = new KnownSecrets();
        for (const secret of secrets) known.add(secret);
        const gone = secrets[pick % secrets.length] as string;
        known.delete(gone);
        known.add(secrets[0] as string);
        const rest = secrets.filter((secret) => secret !== gone);
        expect(known.size).toBe(rest.length + (gone === secrets[0] ? 1 : 0));
        const kept = gone === secrets[0] ? secrets.slice(0, 1).concat(rest) : rest;
        const text = secrets.join(' ');
        expect(known.replace(text, standIn)).toBe(byOnePattern(kept, text, standIn));
      }),
      { numRuns: 200 },
    );
  });
});
