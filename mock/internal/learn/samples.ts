import type { RoutedExchange } from '../../../http/index.ts';
import type { OperationId } from '../../../spec/index.ts';
import type { CheckedExchange } from '../from-recording.ts';
import { fingerprint } from '../handlers/payments.ts';

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

/** The exchange's number as people count them (from 1), as the learned report names it. */
export const entryOf = (exchange: RoutedExchange): number => exchange.index + 1;

/** What a recorded request carried, by name: path parameters, then JSON or form body fields. */
export function requestFieldsOf(exchange: RoutedExchange): Json {
  const text = exchange.entry.request.postData?.text;
  const body =
    objectOf(exchange.requestJson) ??
    (text !== undefined && exchange.operation?.requestBody?.mediaType !== 'application/json'
      ? Object.fromEntries(new URLSearchParams(text))
      : {});
  return { ...exchange.params, ...body };
}

/** The `data` of a recorded success answer. */
export const dataOf = (exchange: RoutedExchange): Json | undefined =>
  objectOf(objectOf(exchange.responseJson)?.data);

/** A recorded answer's header, by lower-case name. */
export const headerOf = (exchange: RoutedExchange, name: string): string | undefined =>
  exchange.entry.response.headers.find((header) => header.name.toLowerCase() === name)?.value;

/** The recording sorted by what each exchange can teach. */
export interface Samples {
  /** Every exchange on the interface (its path under the version segment), in order. */
  readonly all: readonly RoutedExchange[];
  /** 200 answers that keep to the documented view, by operation (a transfer's first answer only). */
  readonly success: ReadonlyMap<OperationId, readonly RoutedExchange[]>;
  /** Transfers answered again for the same reference and body: exact replays. */
  readonly replays: readonly RoutedExchange[];
}

/** Sort a checked recording: successes by operation, a transfer's first answer apart from its replays. */
export function sortSamples(checked: readonly CheckedExchange[], basePath: string): Samples {
  const all = checked
    .map(({ exchange }) => exchange)
    .filter((exchange) => new URL(exchange.entry.request.url).pathname.includes(`${basePath}/`));
  const success = new Map<OperationId, RoutedExchange[]>();
  const replays: RoutedExchange[] = [];
  const references = new Map<string, string>();
  for (const { exchange, problem } of checked) {
    const id = exchange.operation?.id;
    if (!id || problem || exchange.entry.response.status !== 200) continue;
    if (id === 'usdTransfer') {
      const body = objectOf(exchange.requestJson) ?? {};
      const reference = String(body.reference);
      const print = fingerprint({ ...body });
      const first = references.get(reference);
      if (first !== undefined) {
        if (first === print) replays.push(exchange);
        continue;
      }
      references.set(reference, print);
    }
    success.set(id, [...(success.get(id) ?? []), exchange]);
  }
  return { all, success, replays };
}
