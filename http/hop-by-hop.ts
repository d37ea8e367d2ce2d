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

/**
 * The end-to-end header lines of a message as they were sent (`rawHeaders`: names as spelled and
 * values, alternating), each duplicate kept in its place: hop-by-hop lines, those any Connection
 * line names, and the `drop` ones (lower case) left out. What a proxy sends on, and records.
 */
export function endToEndLines(raw: readonly string[], drop: readonly string[] = []): string[] {
  const named: string[] = [];
  for (let index = 0; index < raw.length; index += 2)
    if ((raw[index] as string).toLowerCase() === 'connection')
      for (const name of (raw[index + 1] as string).split(',')) {
        const lower = name.trim().toLowerCase();
        if (lower && lower !== 'close' && lower !== 'keep-alive') named.push(lower);
      }
  const out: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    const lower = (raw[index] as string).toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.includes(lower) || drop.includes(lower)) continue;
    out.push(raw[index] as string, raw[index + 1] as string);
  }
  return out;
}
