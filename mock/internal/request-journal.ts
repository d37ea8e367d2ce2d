import type { FiredFault, RecordedRequest, RequestFilter, Spec, UnmatchedRequest } from '../../spec/index.ts';
import type { MockRequest } from './http-types.ts';
import { nearMiss } from './near-miss.ts';

/** Keys whose values never enter the journal: credentials of any kind. */
const SECRET_KEY = /secret|password|token|authorization|credential/i;
export const REDACTED = '[redacted]';

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redact(item)]),
    );
  return value;
}

/** Bodies past this are kept cut short: the journal must not hold megabytes per entry. */
export const JOURNAL_BODY_BYTES = 64 * 1024;

/** The body as the journal shows it: parsed JSON or form fields, credentials redacted. */
function bodyOf(raw: Buffer, contentType: string): unknown {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  const type = contentType.toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    try {
      return redact(Object.fromEntries(new URLSearchParams(text)));
    } catch {
      return REDACTED;
    }
  }
  try {
    return redact(JSON.parse(text));
  } catch {
    return { unparsed: `${text.slice(0, 200)}${text.length > 200 ? '…' : ''}` };
  }
}

export interface JournalInput {
  request: MockRequest;
  operationId: string | undefined;
  clientId: string | undefined;
  status: number;
  fault: FiredFault | undefined;
}

/** Every request on the interface, newest last, in a ring buffer of `size` entries. */
export interface RequestJournal {
  record(input: JournalInput): void;
  query(filter?: RequestFilter): RecordedRequest[];
  unmatched(): UnmatchedRequest[];
  /** Forget everything, or one client's entries. */
  clear(clientId?: string): void;
}

/** An entry as kept: the raw body (and the time) formatted only when someone reads the journal. */
interface Kept extends Omit<RecordedRequest, 'body' | 'at'> {
  atMs: number;
  raw: Buffer;
  bytes: number;
  contentType: string;
}

const shown = ({ atMs, raw, bytes, contentType, ...entry }: Kept): RecordedRequest => ({
  at: new Date(atMs).toISOString(),
  ...entry,
  body: bytes > JOURNAL_BODY_BYTES ? { unparsed: `${bytes} bytes, not kept` } : bodyOf(raw, contentType),
});

/** The last `size` entries (the array is trimmed in batches, so recording stays O(1) amortised). */
const newest = (entries: Kept[], size: number): Kept[] =>
  entries.length > size ? entries.slice(entries.length - size) : entries;

export function createRequestJournal(spec: Spec, size: number): RequestJournal {
  let entries: Kept[] = [];
  return {
    record({ request, operationId, clientId, status, fault }) {
      const query = request.query.toString();
      entries.push({
        atMs: Date.now(),
        method: request.method,
        path: `${request.path}${query ? `?${query}` : ''}`,
        operationId: operationId ?? null,
        clientId: clientId ?? null,
        status,
        fault: fault ?? null,
        // Large uploads are not held: the journal keeps their size only.
        raw: request.body.length > JOURNAL_BODY_BYTES ? Buffer.alloc(0) : request.body,
        bytes: request.body.length,
        contentType: request.headers['content-type'] ?? '',
      });
      if (entries.length > size * 2) entries = entries.slice(entries.length - size);
    },
    query(filter = {}) {
      // Filter the kept entries first: only the ones returned have their bodies parsed.
      const status = filter.status === undefined ? undefined : Number(filter.status);
      return newest(entries, size)
        .filter(
          (entry) =>
            (filter.operation === undefined || entry.operationId === filter.operation) &&
            (filter.clientId === undefined || entry.clientId === filter.clientId) &&
            (status === undefined || entry.status === status),
        )
        .map(shown);
    },
    unmatched() {
      return newest(entries, size)
        .filter((entry) => entry.operationId === null)
        .map(shown)
        .map((entry) => ({
          ...entry,
          hint: nearMiss(spec, entry.method, entry.path.split('?')[0] ?? '') ?? null,
        }));
    },
    clear(clientId) {
      entries =
        clientId === undefined ? [] : newest(entries, size).filter((entry) => entry.clientId !== clientId);
    },
  };
}
