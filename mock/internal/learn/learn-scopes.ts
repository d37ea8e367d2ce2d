import type { RoutedExchange } from '../../../http/index.ts';
import type { OperationId } from '../../../spec/index.ts';
import type { ReportDraft } from './learned-report.ts';
import { entryOf } from './samples.ts';
import { askedAndGranted } from './token-scopes.ts';

/** Token answers that must show a grant beyond what was asked before the mock grants so. */
const GRANTS_FOR_A_RULE = 2;
const REFUSED = new Set([400, 401, 403]);

interface Tried {
  readonly scopes: readonly string[];
  readonly taken: boolean;
  readonly entry: number;
}

export interface ScopeFacts {
  readonly scopes: Partial<Record<OperationId, readonly string[]>>;
  readonly grantsClientScopes: boolean;
}

const listed = (scopes: readonly string[]): string =>
  scopes.length === 0 ? 'any scope' : scopes.join(' and ');

/**
 * The scopes each operation needs, from tokens of fewer scopes than the client has: the scopes
 * every taken token had, when each is shown needed by a refused token that lacked it; else free
 * (pacu's decision). A refused token of every scope says nothing of scopes: something else was.
 */
export function learnScopes(
  exchanges: readonly RoutedExchange[],
  scopesOf: ReadonlyMap<RoutedExchange, readonly string[]>,
  report: ReportDraft,
): ScopeFacts {
  const all = [...new Set([...scopesOf.values()].flat())];
  const tried = new Map<OperationId, Tried[]>();
  for (const [exchange, scopes] of scopesOf) {
    const id = exchange.operation?.id;
    const status = exchange.entry.response.status;
    const taken = status === 200;
    if (!id || !(taken || (REFUSED.has(status) && scopes.length < all.length))) continue;
    tried.set(id, [...(tried.get(id) ?? []), { scopes, taken, entry: entryOf(exchange) }]);
  }
  const scopes: Partial<Record<OperationId, readonly string[]>> = {};
  for (const [id, list] of tried) {
    const taken = list.filter((one) => one.taken);
    const refused = list.filter((one) => !one.taken);
    if (taken.length === 0 || !taken.some((one) => one.scopes.length < all.length)) {
      report.kept(
        `scopes.${id}`,
        `which scopes ${id} needs`,
        undefined,
        'left free: never taken with a token of fewer scopes than the client has',
        list.map((one) => one.entry),
      );
      continue;
    }
    const needed = all.filter((scope) => taken.every((one) => one.scopes.includes(scope)));
    const explained = refused.every((one) => needed.some((scope) => !one.scopes.includes(scope)));
    const shown = needed.every((scope) => refused.some((one) => !one.scopes.includes(scope)));
    const entries = list.map((one) => one.entry);
    if (!explained || !shown) {
      report.kept(
        `scopes.${id}`,
        `which scopes ${id} needs`,
        undefined,
        `left free: the tokens tried (${list.map((one) => `${one.scopes.join(',')} ${one.taken ? 'taken' : 'refused'}`).join('; ')}) show no one need`,
        entries,
      );
      continue;
    }
    scopes[id] = needed;
    report.learned(`scopes.${id}`, `which scopes ${id} needs`, needed, listed(needed), entries);
  }
  return { scopes, grantsClientScopes: learnGrant(exchanges, all, report) };
}

/** Whether the sandbox grants every scope of the client whatever a token request asks. */
function learnGrant(
  exchanges: readonly RoutedExchange[],
  all: readonly string[],
  report: ReportDraft,
): boolean {
  const fewer = exchanges.flatMap((exchange) => {
    if (exchange.operation?.id !== 'getAccessToken' || exchange.entry.response.status !== 200) return [];
    const { asked, granted } = askedAndGranted(exchange);
    return granted && asked.length > 0 && asked.length < all.length ? [{ asked, granted, exchange }] : [];
  });
  const beyond = fewer.filter(({ asked, granted }) => granted.length > asked.length);
  const about = 'the scopes a token is granted when it asks for fewer than the client has';
  const entries = fewer.map(({ exchange }) => entryOf(exchange));
  if (beyond.length >= GRANTS_FOR_A_RULE && beyond.length === fewer.length) {
    report.learned('token.grant', about, 'client', 'every scope of the client, whatever was asked', entries);
    return true;
  }
  report.kept(
    'token.grant',
    about,
    'asked',
    fewer.length === 0
      ? 'what was asked (never tried)'
      : `what was asked (${beyond.length} of ${fewer.length} answers granted more)`,
    entries,
  );
  return false;
}
