import type { RoutedExchange } from '../../../http/index.ts';
import type { AnswerHeader } from '../behaviour.ts';
import { describeIdForm, idFormOf, idMaker } from './id-form.ts';
import type { ReportDraft } from './learned-report.ts';
import { entryOf, headerOf } from './samples.ts';

/** Headers that are the connection's or the answer's own, never a sandbox's habit to copy. */
const OWN_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-type',
  'www-authenticate',
  'set-cookie',
  'allow',
  'etag',
  'last-modified',
  'age',
  'retry-after',
  // How the bytes travelled, not what they say: the mock sends its own bytes, uncompressed.
  'content-encoding',
  'content-range',
  'accept-ranges',
  'trailer',
  'upgrade',
  'via',
  'alt-svc',
  'location',
]);

/**
 * Headers every recorded answer carries (a constant, or a fresh id each time), and those only the
 * answers to exact replays carry (`Idempotent-Replayed: true`).
 */
export function learnHeaders(
  all: readonly RoutedExchange[],
  replays: readonly RoutedExchange[],
  report: ReportDraft,
) {
  const answers = all.filter((exchange) => !replays.includes(exchange));
  const names = new Set(
    answers.flatMap((exchange) => exchange.entry.response.headers.map(({ name }) => name.toLowerCase())),
  );
  const headers: AnswerHeader[] = [];
  for (const name of names) {
    if (OWN_HEADERS.has(name)) continue;
    const values = answers.map((exchange) => headerOf(exchange, name));
    if (values.some((value) => value === undefined)) continue;
    const texts = values as string[];
    const entries = answers.map(entryOf);
    if (texts.every((value) => value === texts[0])) {
      headers.push({ name, value: texts[0] as string });
      report.learned(
        `header.${name}`,
        `the ${name} header of every answer`,
        texts[0],
        JSON.stringify(texts[0]),
        entries,
      );
      continue;
    }
    const form = idFormOf(texts);
    if (form) {
      headers.push({ name, make: idMaker(form) });
      report.learned(
        `header.${name}`,
        `the ${name} header of every answer`,
        describeIdForm(form),
        `a fresh ${describeIdForm(form)}`,
        entries,
      );
    }
  }
  const replayHeaders: Record<string, string> = {};
  for (const replay of replays)
    for (const { name, value } of replay.entry.response.headers) {
      const lower = name.toLowerCase();
      if (OWN_HEADERS.has(lower) || names.has(lower)) continue;
      replayHeaders[lower] = value;
    }
  if (Object.keys(replayHeaders).length > 0)
    report.learned(
      'replay.headers',
      'headers on the answer to an exact replay of a transfer',
      replayHeaders,
      Object.entries(replayHeaders)
        .map(([name, value]) => `${name}: ${value}`)
        .join(', '),
      replays.map(entryOf),
    );
  else report.kept('replay.headers', 'headers on the answer to an exact replay of a transfer', {}, 'none');
  return { headers, replayHeaders };
}
