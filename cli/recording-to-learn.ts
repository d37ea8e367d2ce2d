import { readHar, routeHar } from '../http/index.ts';
import { ConfigError, loadSpec } from '../spec/index.ts';

/**
 * Refuse, before the mock starts, a recording it would learn nothing from: no entries, or none that
 * is an answered request to one of the description's operations (a HAR of another site).
 */
export async function assertRecordingTeaches(file: string): Promise<void> {
  const har = await readHar(file);
  const entries = har.log.entries.length;
  const answered = routeHar(await loadSpec(), har).filter(
    (exchange) => exchange.operation && exchange.error === undefined && exchange.entry.response.status > 0,
  );
  if (answered.length > 0) return;
  const held =
    entries === 0
      ? 'no exchanges'
      : `${entries} exchange${entries === 1 ? '' : 's'}, none an answered request to one of the API's operations`;
  throw new ConfigError(
    `pacu: ${file} holds ${held}: a mock would learn nothing from it (record one with pacu proxy --record FILE, or pacu record)`,
  );
}
