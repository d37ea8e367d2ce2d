import type { FaultKind, FaultRecord, FaultSpec } from '../../http/index.ts';
import { OPERATION_IDS } from '../../spec/index.ts';
import { MockHttpError } from './http-types.ts';
import { newId, type Random, seededRandom } from './random.ts';
import type { Maybe } from './store/maybe.ts';

const KINDS: readonly FaultKind[] = [
  'status',
  'delay',
  'reset',
  'empty',
  'malformed',
  'commit-then-status',
  'commit-then-reset',
];
/** The longest `delay` fault: past any client's timeout, short of holding a socket for ever. */
export const MAX_FAULT_DELAY_MS = 10 * 60 * 1000;

/** What a fault is matched against: known before the operation runs. */
export interface FaultTarget {
  operationId: string | undefined;
  clientId: string | undefined;
  body: unknown;
}

const bad = (path: string, message: string): MockHttpError => new MockHttpError(400, `${path} ${message}`);
const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Check one fault as the control API or a scenario file gives it; throws 400 naming the field. */
export function validateFault(value: unknown, path = 'fault'): FaultSpec {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad(path, 'must be an object');
  const fault = value as Record<string, unknown>;
  const known = new Set([
    'operation',
    'kind',
    'status',
    'retryAfter',
    'ms',
    'times',
    'probability',
    'clientId',
    'match',
  ]);
  const extra = Object.keys(fault).find((key) => !known.has(key));
  if (extra) throw bad(`${path}/${extra}`, 'is not a field of a fault');
  if (typeof fault.operation !== 'string' || !(OPERATION_IDS as readonly string[]).includes(fault.operation))
    throw bad(`${path}/operation`, `must be an operationId: ${OPERATION_IDS.join(', ')}`);
  if (!KINDS.includes(fault.kind as FaultKind))
    throw bad(`${path}/kind`, `must be one of ${KINDS.join(', ')}`);
  const kind = fault.kind as FaultKind;
  const withStatus = kind === 'status' || kind === 'commit-then-status';
  if (withStatus && !isWhole(fault.status, 400, 599))
    throw bad(`${path}/status`, 'must be an HTTP status from 400 to 599');
  if (!withStatus && fault.status !== undefined) throw bad(`${path}/status`, `does not apply to ${kind}`);
  if (fault.retryAfter !== undefined && (!withStatus || !isWhole(fault.retryAfter, 0, 86_400)))
    throw bad(`${path}/retryAfter`, 'is whole seconds from 0 to 86400, with status faults only');
  if (kind === 'delay' && !isWhole(fault.ms, 0, MAX_FAULT_DELAY_MS))
    throw bad(`${path}/ms`, `must be whole milliseconds from 0 to ${MAX_FAULT_DELAY_MS}`);
  if (kind !== 'delay' && fault.ms !== undefined) throw bad(`${path}/ms`, `does not apply to ${kind}`);
  if (fault.times !== undefined && !isWhole(fault.times, 1, Number.MAX_SAFE_INTEGER))
    throw bad(`${path}/times`, 'must be a whole number >= 1');
  const probability = fault.probability;
  if (probability !== undefined && !(typeof probability === 'number' && probability >= 0 && probability <= 1))
    throw bad(`${path}/probability`, 'must be a number from 0 to 1');
  if (fault.clientId !== undefined && (typeof fault.clientId !== 'string' || fault.clientId === ''))
    throw bad(`${path}/clientId`, 'must be a non-empty string');
  const match = fault.match as Record<string, unknown> | undefined;
  if (match !== undefined) {
    if (!match || typeof match !== 'object' || Array.isArray(match))
      throw bad(`${path}/match`, 'must be an object');
    const other = Object.keys(match).find((key) => key !== 'reference' && key !== 'amount');
    if (other) throw bad(`${path}/match/${other}`, 'is not matched on (reference, amount)');
    if (match.reference !== undefined) {
      try {
        new RegExp(String(match.reference));
      } catch (cause) {
        throw bad(`${path}/match/reference`, `is not a regular expression: ${(cause as Error).message}`);
      }
      if (typeof match.reference !== 'string') throw bad(`${path}/match/reference`, 'must be a string');
    }
    if (match.amount !== undefined && typeof match.amount !== 'number')
      throw bad(`${path}/match/amount`, 'must be a number');
  }
  return structuredClone(fault) as unknown as FaultSpec;
}

/** Whether `fault` applies to the request `target` describes. */
export function faultMatches(fault: FaultSpec, target: FaultTarget): boolean {
  if (fault.operation !== target.operationId) return false;
  if (fault.clientId !== undefined && fault.clientId !== target.clientId) return false;
  if (!fault.match) return true;
  const body = (target.body ?? {}) as Record<string, unknown>;
  if (fault.match.amount !== undefined && body.amount !== fault.match.amount) return false;
  if (fault.match.reference !== undefined) {
    if (typeof body.reference !== 'string') return false;
    if (!new RegExp(`^(?:${fault.match.reference})$`).test(body.reference)) return false;
  }
  return true;
}

/** The faults a mock holds, in the order added; the first that matches a request and draws true fires. */
export interface FaultRegistry {
  add(spec: FaultSpec): Maybe<FaultRecord>;
  list(): Maybe<FaultRecord[]>;
  /**
   * True while a fault may be held: without one, requests need no look before they run. A shared
   * store cannot know without asking, so it is true there.
   */
  readonly armed: boolean;
  /** Remove every fault, or those of one client; how many went. */
  clear(clientId?: string): Maybe<number>;
  /** The fault that fires on this request (counted, and gone once `times` is used up), if any: atomic. */
  fire(target: FaultTarget): Maybe<FaultRecord | undefined>;
  /** Start the probability draws again from the seed (a plain reset). */
  reseed(): Maybe<void>;
}

export function createFaultRegistry(seed: number): FaultRegistry {
  let faults: FaultRecord[] = [];
  let random: Random = seededRandom(seed);
  return {
    add(spec) {
      const record: FaultRecord = { ...validateFault(spec), id: newId('flt'), fired: 0 };
      faults.push(record);
      return structuredClone(record);
    },
    list: () => structuredClone(faults),
    get armed() {
      return faults.length > 0;
    },
    clear(clientId) {
      const before = faults.length;
      faults = clientId === undefined ? [] : faults.filter((fault) => fault.clientId !== clientId);
      return before - faults.length;
    },
    fire(target) {
      for (const fault of faults) {
        if (!faultMatches(fault, target)) continue;
        // Drawn only for requests the fault matches, so other traffic never shifts the sequence.
        if (fault.probability !== undefined && fault.probability < 1 && random() >= fault.probability)
          continue;
        fault.fired++;
        if (fault.times !== undefined && fault.fired >= fault.times)
          faults = faults.filter((f) => f !== fault);
        return structuredClone(fault);
      }
      return undefined;
    },
    reseed() {
      random = seededRandom(seed);
    },
  };
}
