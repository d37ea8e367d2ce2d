import { isUtf8 } from 'node:buffer';
import { LRUCache } from 'lru-cache';
import { decodedBytes } from '../http/index.ts';

/** Distinct answer bodies kept to compare with, and the longest one. */
const REMEMBERED_ANSWERS = 256;
const REMEMBERED_LENGTH = 64 * 1024;

/** Only reads repeat their answers (a write's is a new record each time); and only short ones are kept. */
const remembers = (method: string, length: number): boolean =>
  method === 'GET' && length <= REMEMBERED_LENGTH;

/** One literal, not spread from another: a spread cost more than the decoding. */
const answerText = (text: string, seen: boolean, binary: Buffer | undefined): AnswerText =>
  binary === undefined ? { text, seen } : { text, seen, binary };

/** A body as text, undone from its Content-Encoding; its bytes too when they are not UTF-8. */
function decoded(body: Buffer, encoding: string | string[] | undefined): AnswerText {
  const bytes = encoding === undefined ? body : decodedBytes(body, encoding);
  return answerText(bytes.toString('utf8'), false, isUtf8(bytes) ? undefined : bytes);
}

/** An answer's text, and whether the same bytes were decoded before (so whatever looks at texts saw it). */
export interface AnswerText {
  readonly text: string;
  readonly seen: boolean;
  /** The decoded bytes, when they are not UTF-8. */
  readonly binary?: Buffer;
}

interface Kept {
  readonly bytes: Buffer;
  readonly encoding: string;
  readonly again: AnswerText;
}

/**
 * Decode answer bodies, handing back the very same string for the same bytes: the proxy's memories
 * (the judge's verdicts, the HAR writer's bodies) are keyed by the answer's text, and one string
 * hashes once (decision 101). One body is kept per byte length (a copy), for reads of at most
 * 64 KiB, at most {@link REMEMBERED_ANSWERS} of them.
 */
export function createAnswerTexts(): (
  method: string,
  body: Buffer,
  encoding: string | string[] | undefined,
) => AnswerText {
  const kept = new LRUCache<number, Kept>({ max: REMEMBERED_ANSWERS });
  return (method, body, encoding) => {
    if (!remembers(method, body.length)) return decoded(body, encoding);
    const coding = String(encoding ?? '');
    const before = kept.get(body.length);
    if (before && before.encoding === coding && before.bytes.equals(body)) return before.again;
    const first = decoded(body, encoding);
    const again = answerText(first.text, true, first.binary);
    kept.set(body.length, { bytes: Buffer.from(body), encoding: coding, again });
    return first;
  };
}
