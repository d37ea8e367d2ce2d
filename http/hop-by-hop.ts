// What belongs to one connection and not to the message (RFC 9110 7.6.1): the proxy never forwards
// it, and a recording or a curl line of an exchange leaves it out.

/** Headers that belong to one connection, not to the message (RFC 9110 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Headers = Record<string, string | string[] | undefined>;

/** The end-to-end headers of a message: hop-by-hop ones and those its Connection header names dropped. */
export function endToEnd(headers: Headers, drop: readonly string[] = []): Record<string, string | string[]> {
  // Node hands header names over in lower case; a Connection header that names others is rare, so
  // its list is made only when there is one (this runs twice for every exchange a proxy forwards).
  const connection = headers.connection;
  const named =
    connection === undefined || connection === 'keep-alive' || connection === 'close'
      ? undefined
      : String(connection)
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named?.includes(lower) || drop.includes(lower)) continue;
    out[lower] = value;
  }
  return out;
}
