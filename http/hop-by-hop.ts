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

/** The lengths of the hop-by-hop names: a name of another length is none of them. */
const HOP_LENGTHS = new Set([...HOP_BY_HOP].map((name) => name.length));

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
export function endToEndLines(raw: readonly string[], drop: readonly string[] = []): readonly string[] {
  // A name is lower-cased only when its length is one a hop-by-hop or dropped name has: most are not.
  let named: string[] | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 10 && name.toLowerCase() === 'connection')
      for (const token of (raw[index + 1] as string).split(',')) {
        const lower = token.trim().toLowerCase();
        if (!lower || lower === 'close' || lower === 'keep-alive') continue;
        named ??= [];
        named.push(lower);
      }
  }
  let out: string[] | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    const judged =
      named !== undefined ||
      HOP_LENGTHS.has(name.length) ||
      drop.some((dropped) => dropped.length === name.length);
    const lower = judged ? name.toLowerCase() : '';
    if (judged && (HOP_BY_HOP.has(lower) || named?.includes(lower) || drop.includes(lower)))
      out ??= raw.slice(0, index);
    else out?.push(name, raw[index + 1] as string);
  }
  // Nothing to leave out: the lines as they are, not a copy.
  return out ?? raw;
}
