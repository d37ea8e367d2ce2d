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

/** The body as the journal keeps it: parsed JSON or form fields, credentials redacted. */
function bodyOf(request: MockRequest): unknown {
  if (request.body.length === 0) return null;
  const text = request.body.toString('utf8');
  const type = (request.headers['content-type'] ?? '').toLowerCase();
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

export function createRequestJournal(spec: Spec, size: number): RequestJournal {
  let entries: RecordedRequest[] = [];
  return {
    record({ request, operationId, clientId, status, fault }) {
      const query = request.query.toString();
      entries.push({
        at: new Date().toISOString(),
        method: request.method,
        path: `${request.path}${query ? `?${query}` : ''}`,
        operationId: operationId ?? null,
        clientId: clientId ?? null,
        status,
        fault: fault ?? null,
        body: bodyOf(request),
      });
      if (entries.length > size) entries = entries.slice(entries.length - size);
    },
    query(filter = {}) {
      return entries.filter(
        (entry) =>
          (filter.operation === undefined || entry.operationId === filter.operation) &&
          (filter.clientId === undefined || entry.clientId === filter.clientId) &&
          (filter.status === undefined || entry.status === Number(filter.status)),
      );
    },
    unmatched() {
      return entries
        .filter((entry) => entry.operationId === null)
        .map((entry) => ({
          ...entry,
          hint: nearMiss(spec, entry.method, entry.path.split('?')[0] ?? '') ?? null,
        }));
    },
    clear(clientId) {
      entries = clientId === undefined ? [] : entries.filter((entry) => entry.clientId !== clientId);
    },
  };
}
