import type { EdgeRequest, ObservedRequest } from '../http/index.ts';

/**
 * A request the proxy forwards, as its observers see it. The query is parsed only when one reads
 * it: the recording and the judges read the query as it was sent (`search`).
 */
export class ForwardedRequest implements ObservedRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  decoded?: string;
  #query: URLSearchParams | undefined;

  /** `lines`: the header lines as the upstream receives them (what the recording keeps). */
  constructor(request: EdgeRequest, lines: readonly string[]) {
    this.method = request.method;
    this.path = request.path;
    this.search = request.search;
    this.headers = request.headers as Record<string, string | undefined>;
    this.rawHeaders = lines;
    this.body = request.body;
  }

  get query(): URLSearchParams {
    this.#query ??= new URLSearchParams(this.search);
    return this.#query;
  }
}
