import type { AnswerError, ObservedAnswer } from '../http/index.ts';
import type { AnswerText } from './answer-texts.ts';

/** An answer body past this is forwarded whole but judged and recorded only by its size. */
export const KEPT_BODY_BYTES = 8 * 1024 * 1024;

type Decode = (method: string, body: Buffer, encoding: string | string[] | undefined) => AnswerText;

/**
 * The upstream's answer as the pipeline's observers see it: its text decoded from its
 * Content-Encoding on first read, so a proxy that records reads it before the answer's last bytes
 * leave and one that does not, only when the judge does, after.
 */
export class ProxyAnswer implements ObservedAnswer {
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly bytes: number;
  readonly durationMs: number;
  readonly error: AnswerError | undefined;
  readonly #decode: Decode;
  readonly #method: string;
  readonly #chunks: readonly Buffer[];
  #text: AnswerText | undefined;

  constructor(
    decode: Decode,
    method: string,
    headers: Readonly<Record<string, string | string[]>>,
    chunks: readonly Buffer[],
    bytes: number,
    durationMs: number,
    error?: AnswerError,
  ) {
    this.#decode = decode;
    this.#method = method;
    this.headers = headers;
    this.#chunks = chunks;
    this.bytes = bytes;
    this.durationMs = durationMs;
    this.error = error;
  }

  /** Whether the whole body is kept: an answer that broke off, or one past the kept size, is not. */
  get whole(): boolean {
    return this.error === undefined && this.bytes <= KEPT_BODY_BYTES;
  }

  get text(): string {
    return this.#decoded().text;
  }

  get repeated(): boolean {
    return this.#decoded().seen;
  }

  get binary(): Buffer | undefined {
    return this.#decoded().binary;
  }

  #decoded(): AnswerText {
    if (!this.#text) {
      const chunks = this.#chunks;
      const kept = this.bytes <= KEPT_BODY_BYTES || this.error !== undefined;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks as Buffer[]);
      this.#text = kept
        ? this.#decode(this.#method, body, this.headers['content-encoding'])
        : { text: '', seen: false };
    }
    return this.#text;
  }
}

/** The proxy's own answer where the upstream gave none (502, 504): the envelope it sent, and why. */
export function refusalAnswer(text: string, durationMs: number, error: AnswerError): ObservedAnswer {
  return {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    text,
    bytes: Buffer.byteLength(text),
    whole: true,
    repeated: false,
    durationMs,
    error,
  };
}
