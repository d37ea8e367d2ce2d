import {
  type HarBodyText,
  type HarEntryText,
  type HarExchange,
  type HarNameValue,
  harBodyText,
  harEntryText,
} from '../spec/index.ts';
import { REMEMBERED_ANSWERS, type Redactor, rememberAtMost, remembersAnswer } from '../suites/index.ts';

/** Distinct header names and values remembered; all are forgotten when there are more. */
const REMEMBERED_HEADERS = 4096;

/**
 * An exchange's HAR entry as JSON text (in {@link HarEntryText}'s pieces), every string through the redactor (the one place secrets
 * leave), as `harEntry(redactor.redact(exchange))` would be. A provider answers the same read with
 * the same bytes, so an answer body's redacted JSON text is remembered while the redactor learns
 * no new secret: redacting and escaping a 3 KB list for every GET was most of what recording cost.
 */
export function createHarWriter(redactor: Redactor): (har: HarExchange) => HarEntryText {
  const bodies = new Map<string, HarBodyText>();
  let known = redactor.known;
  // Header names and values repeat (the same token, agent and content type on every request):
  // each is redacted once while the redactor learns nothing new.
  const short = new Map<string, string>();
  const forgetIfLearned = (): void => {
    if (redactor.known === known) return;
    bodies.clear();
    short.clear();
    known = redactor.known;
  };
  const text = (value: string): string => redactor.redact(value);
  const remembered = (value: string): string => {
    let out = short.get(value);
    if (out === undefined) {
      out = text(value);
      if (short.size >= REMEMBERED_HEADERS) short.clear();
      short.set(value, out);
    }
    return out;
  };
  const pairs = (list: readonly HarNameValue[]): HarNameValue[] =>
    list.map(({ name, value }) => ({ name: remembered(name), value: remembered(value) }));
  const body = (raw: string, method: string): HarBodyText => {
    if (!remembersAnswer(method, raw.length)) return harBodyText(text(raw));
    let kept = bodies.get(raw);
    if (!kept) {
      kept = harBodyText(text(raw));
      rememberAtMost(bodies, raw, kept, REMEMBERED_ANSWERS);
    }
    return kept;
  };
  return (har) => {
    forgetIfLearned();
    return harEntryText(
      {
        ...har,
        method: remembered(har.method),
        url: text(har.url),
        requestHeaders: pairs(har.requestHeaders),
        ...(har.requestBody !== undefined ? { requestBody: text(har.requestBody) } : {}),
        statusText: remembered(har.statusText),
        responseHeaders: pairs(har.responseHeaders),
        responseBody: '',
        ...(har.operation !== undefined ? { operation: remembered(har.operation) } : {}),
      },
      body(har.responseBody, har.method),
    );
  };
}
