import {
  type HarBodyText,
  type HarEntryText,
  type HarExchange,
  type HarNameValue,
  harBodyText,
  harEntryText,
  type Redactor,
} from '../http/index.ts';
import { boundedMemory, REMEMBERED_ANSWERS, remembersAnswer } from '../suites/index.ts';

/** Distinct header name and value pairs remembered; all are forgotten when there are more. */
const REMEMBERED_HEADERS = 4096;

/**
 * An exchange's HAR entry as JSON text (in {@link HarEntryText}'s pieces), every string through the redactor (the one place secrets
 * leave), as `harEntry(redactor.redact(exchange))` would be. A provider answers the same read with
 * the same bytes, so an answer body's redacted JSON text is remembered while the redactor learns
 * no new secret: redacting and escaping a 3 KB list for every GET was most of what recording cost.
 */
export function createHarWriter(redactor: Redactor): (har: HarExchange) => HarEntryText {
  const bodies = boundedMemory<string, HarBodyText>(REMEMBERED_ANSWERS);
  let known = redactor.known;
  // Headers repeat (the same token, agent and content type on every request): each name and value
  // pair is redacted and written as JSON once while the redactor learns nothing new.
  const pairsJson = new Map<string, Map<string, string>>();
  let pairsKept = 0;
  const forgetIfLearned = (): void => {
    if (redactor.known === known) return;
    bodies.clear();
    pairsJson.clear();
    pairsKept = 0;
    known = redactor.known;
  };
  const text = (value: string): string => redactor.redact(value);
  const pairJson = ({ name, value }: HarNameValue): string => {
    let byValue = pairsJson.get(name);
    if (!byValue) {
      byValue = new Map();
      pairsJson.set(name, byValue);
    }
    let out = byValue.get(value);
    if (out === undefined) {
      if (pairsKept >= REMEMBERED_HEADERS) {
        pairsJson.clear();
        pairsJson.set(name, byValue);
        byValue.clear();
        pairsKept = 0;
      }
      out = JSON.stringify({ name: text(name), value: text(value) });
      byValue.set(value, out);
      pairsKept += 1;
    }
    return out;
  };
  const headersJson = (list: readonly HarNameValue[]): string => {
    let out = '[';
    for (let index = 0; index < list.length; index++)
      out +=
        index === 0 ? pairJson(list[index] as HarNameValue) : `,${pairJson(list[index] as HarNameValue)}`;
    return `${out}]`;
  };
  const body = (raw: string, method: string): HarBodyText => {
    if (!remembersAnswer(method, raw.length)) return harBodyText(text(raw));
    let kept = bodies.get(raw);
    if (!kept) {
      kept = harBodyText(text(raw));
      bodies.set(raw, kept);
    }
    return kept;
  };
  return (har) => {
    forgetIfLearned();
    return harEntryText(
      {
        ...har,
        method: text(har.method),
        url: text(har.url),
        ...(har.requestBody !== undefined ? { requestBody: text(har.requestBody) } : {}),
        statusText: text(har.statusText),
        responseBody: '',
        ...(har.operation !== undefined ? { operation: text(har.operation) } : {}),
      },
      body(har.responseBody, har.method),
      headersJson,
    );
  };
}
