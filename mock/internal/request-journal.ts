import {
  bodyText,
  type FiredFault,
  type ForgottenSecrets,
  type RecordedRequest,
  type Redactor,
  type RequestEnd,
  type RequestFilter,
  type RequestObserver,
  rememberForgotten,
  ringSlots,
  SECRET_STAND_INS,
  type UnmatchedRequest,
} from '../../http/index.ts';
import type { Spec } from '../../spec/index.ts';
import { createBodyColumn } from './body-column.ts';
import { nearMiss } from './near-miss.ts';
import type { Maybe } from './store/maybe.ts';
import { StringPool } from './string-pool.ts';

export const REDACTED = SECRET_STAND_INS.redacted;

/** Bodies past this are kept cut short: the journal must not hold megabytes per entry. */
export const JOURNAL_BODY_BYTES = 64 * 1024;

/** The body as the journal shows it: parsed JSON or form fields, through the one redactor. */
function bodyOf(text: string, contentType: string, redactor: Redactor): unknown {
  if (text.length === 0) return null;
  const type = contentType.toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    try {
      return redactor.redact(Object.fromEntries(new URLSearchParams(text)));
    } catch {
      return REDACTED;
    }
  }
  try {
    return redactor.redact(JSON.parse(text));
  } catch {
    return { unparsed: redactor.redactText(`${text.slice(0, 200)}${text.length > 200 ? '…' : ''}`) };
  }
}

/** Every request on the interface, newest last, in a ring buffer of `size` entries: an observer of the pipeline. */
export interface RequestJournal extends RequestObserver {
  record(input: Pick<RequestEnd, 'request' | 'operationId' | 'clientId' | 'status' | 'fault'>): void;
  query(filter?: RequestFilter): Maybe<RecordedRequest[]>;
  unmatched(): Maybe<UnmatchedRequest[]>;
  /** Forget everything, or one client's entries. */
  clear(clientId?: string): Maybe<void>;
}

/** An entry as kept: the body (and the time) are formatted only when someone reads the journal. */
export interface Kept extends Omit<RecordedRequest, 'body' | 'at'> {
  atMs: number;
  text: string;
  bytes: number;
  contentType: string;
}

const shownBy =
  (redactor: Redactor) =>
  ({ atMs, text, bytes, contentType, ...entry }: Kept): RecordedRequest => ({
    at: new Date(atMs).toISOString(),
    ...entry,
    path: redactor.redactText(entry.path),
    body:
      bytes > JOURNAL_BODY_BYTES
        ? { unparsed: `${bytes} bytes, not kept` }
        : bodyOf(text, contentType, redactor),
  });

/**
 * The last `size` requests in a ring of fixed slots, one array per field: an object per request
 * lived just long enough to die in the old generation, which hurt the tail (decision 041). Clearing
 * a client frees what its slots hold, not the slots.
 */
function createJournalColumns(size: number) {
  const ring = ringSlots(size);
  const slots = ring.capacity;
  const atMs = new Float64Array(slots);
  const status = new Int32Array(slots);
  const bytes = new Int32Array(slots);
  const live = new Uint8Array(slots);
  const strings = () => new Array<string>(slots).fill('');
  const method = strings();
  const path = strings();
  const text = createBodyColumn(slots);
  const contentType = strings();
  const operationId = new Array<string | null>(slots).fill(null);
  const clientId = new Array<string | null>(slots).fill(null);
  const fault = new Array<FiredFault | null>(slots).fill(null);
  const pool = new StringPool(4096);
  return {
    push(entry: Kept): void {
      if (slots === 0) return;
      const at = ring.take();
      atMs[at] = entry.atMs;
      status[at] = entry.status;
      bytes[at] = entry.bytes;
      method[at] = entry.method;
      path[at] = pool.share(entry.path);
      text.set(at, entry.text);
      contentType[at] = pool.share(entry.contentType);
      operationId[at] = entry.operationId;
      clientId[at] = entry.clientId;
      fault[at] = entry.fault;
      live[at] = 1;
    },
    /** The live entries, oldest first. */
    entries(): Kept[] {
      const out: Kept[] = [];
      for (const at of ring.inOrder()) {
        if (live[at] === 0) continue;
        out.push({
          atMs: atMs[at] as number,
          method: method[at] as string,
          path: path[at] as string,
          operationId: operationId[at] ?? null,
          clientId: clientId[at] ?? null,
          status: status[at] as number,
          fault: fault[at] ?? null,
          text: text.get(at),
          bytes: bytes[at] as number,
          contentType: contentType[at] as string,
        });
      }
      return out;
    },
    /** Drop every entry, or one client's, releasing what they hold. */
    clear(client?: string): void {
      for (let at = 0; at < slots; at++) {
        if (live[at] === 0 || (client !== undefined && clientId[at] !== client)) continue;
        live[at] = 0;
        path[at] = '';
        text.drop(at);
        fault[at] = null;
      }
    },
  };
}

/** What the journal keeps of a request that ended. */
export function keptOf({
  request,
  operationId,
  clientId,
  status,
  fault,
}: Pick<RequestEnd, 'request' | 'operationId' | 'clientId' | 'status' | 'fault'>): Kept {
  const query = request.query.size > 0 ? request.query.toString() : '';
  return {
    // Below the millisecond: replicas' journals are merged by this time, and answers a client sent
    // one after another may share a millisecond.
    atMs: performance.timeOrigin + performance.now(),
    method: request.method,
    path: query ? `${request.path}?${query}` : request.path,
    operationId: operationId ?? null,
    clientId: clientId ?? null,
    status,
    fault: fault ?? null,
    // Large uploads are not held: the journal keeps their size only.
    text: request.body.length > JOURNAL_BODY_BYTES ? '' : bodyText(request),
    bytes: request.body.length,
    contentType: request.headers['content-type'] ?? '',
  };
}

/**
 * Kept entries as the control API shows them (filtered, redacted), wherever a store keeps them. A
 * journal that keeps entries unredacted hands in what its redactor forgot since (decision 208).
 */
export function journalReader(
  spec: Spec,
  redactor: Redactor,
  basePath: string,
  forgotten?: ForgottenSecrets,
) {
  const scrubbed = (entry: Kept): Kept => {
    if (!forgotten) return entry;
    const path = forgotten.scrub(entry.path);
    const text = forgotten.scrub(entry.text);
    return path === entry.path && text === entry.text ? entry : { ...entry, path, text };
  };
  const redacted = shownBy(redactor);
  const shown = (entry: Kept): RecordedRequest => redacted(scrubbed(entry));
  return {
    query(entries: readonly Kept[], filter: RequestFilter): RecordedRequest[] {
      // Filter the kept entries first: only the ones returned have their bodies parsed.
      const status = filter.status === undefined ? undefined : Number(filter.status);
      return entries
        .filter(
          (entry) =>
            (filter.operation === undefined || entry.operationId === filter.operation) &&
            (filter.clientId === undefined || entry.clientId === filter.clientId) &&
            (status === undefined || entry.status === status),
        )
        .map(shown);
    },
    unmatched(entries: readonly Kept[]): UnmatchedRequest[] {
      return entries
        .filter((entry) => entry.operationId === null)
        .map(shown)
        .map((entry) => ({
          ...entry,
          hint: nearMiss(spec, entry.method, entry.path.split('?')[0] ?? '', basePath) ?? null,
        }));
    },
  };
}

/** The journal of `size` requests; what it shows passes through `redactor` (the mock's, the one policy). */
export function createRequestJournal(
  spec: Spec,
  size: number,
  redactor: Redactor,
  basePath: string = spec.basePath,
): RequestJournal {
  const ring = createJournalColumns(size);
  // Kept as they came and redacted when read: what the redactor forgets meanwhile is redacted still.
  const forgotten = rememberForgotten(redactor, size);
  const reader = journalReader(spec, redactor, basePath, forgotten);
  const record: RequestJournal['record'] = (event) => {
    ring.push(keptOf(event));
    forgotten.kept();
  };
  return {
    record,
    end: record,
    query: (filter = {}) => reader.query(ring.entries(), filter),
    unmatched: () => reader.unmatched(ring.entries()),
    clear(clientId) {
      ring.clear(clientId);
    },
  };
}
