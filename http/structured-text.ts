// The structures a text may hold credentials in, read as their receivers read them: JSON literals
// (escapes undone), query strings and forms (names percent-decoded, the first one too), multipart
// parts (by their Content-Disposition name). A judge (the redactor) replaces values by name; the
// replacement is written back in the structure's own encoding, every other byte as it was.

/** How the values of a structured text are judged. */
export interface ValueJudge {
  /** What a string value under `name` (both decoded) becomes, or undefined when its name says nothing. */
  named(name: string, value: string): string | undefined;
  /** What a JSON value that is no string (`raw`: a number, an object…) under `name` becomes, as a string, or undefined. */
  whole(name: string, raw: string): string | undefined;
  /** A value whose name says nothing, read for what it may hold in turn (a URL, a JSON text, a form). */
  nested(value: string, depth: number): string;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** The index just past the string literal that opens at `start`, or the text's end when it never closes. */
function literalEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** A literal's string, escapes undone; undefined when it is no valid JSON string (written back raw then). */
function decodeLiteral(literal: string): string | undefined {
  if (literal.length < 2 || literal.charCodeAt(literal.length - 1) !== QUOTE) return undefined;
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** The end of the JSON value that starts at `start`: a literal, a balanced object or array, or a bare token. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return literalEnd(text, start);
  if (first === 123 || first === 91) {
    let depth = 0;
    for (let at = start; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) at = literalEnd(text, at) - 1;
      else if (code === 123 || code === 91) depth += 1;
      else if ((code === 125 || code === 93) && --depth === 0) return at + 1;
    }
    return text.length;
  }
  let at = start;
  while (at < text.length && !/[\s,}\]]/.test(text.charAt(at))) at++;
  return at;
}

/**
 * Every JSON string literal of `text` judged: a key's value by the key's name, any other literal's
 * string read again (`nested`) when it has escapes or a form in it. Text outside literals is read as
 * free text for query strings and forms. Works on any text (a log line, a cut body), not only JSON.
 */
export function redactJsonText(text: string, judge: ValueJudge, depth: number): string {
  let out = '';
  let copied = 0;
  let free = 0;
  let at = text.indexOf('"');
  const flushFree = (until: number): void => {
    if (until <= free) return;
    const segment = text.slice(free, until);
    if (!segment.includes('=')) return;
    const redacted = redactForms(segment, judge, depth);
    if (redacted === segment) return;
    out += text.slice(copied, free) + redacted;
    copied = until;
  };
  while (at >= 0) {
    flushFree(at);
    const end = literalEnd(text, at);
    const literal = text.slice(at, end);
    let next = end;
    while (next < text.length && isSpace(text.charCodeAt(next))) next++;
    const decoded = decodeLiteral(literal);
    if (text.charAt(next) === ':' && decoded !== undefined) {
      let start = next + 1;
      while (start < text.length && isSpace(text.charCodeAt(start))) start++;
      const stop = start < text.length ? valueEnd(text, start) : start;
      const raw = text.slice(start, stop);
      const value = raw.charCodeAt(0) === QUOTE ? (decodeLiteral(raw) ?? raw.slice(1)) : undefined;
      const replaced = value === undefined ? judge.whole(decoded, raw) : judge.named(decoded, value);
      if (replaced !== undefined && replaced !== value) {
        out += `${text.slice(copied, start)}${JSON.stringify(replaced)}`;
        copied = stop;
        free = stop;
        at = stop < text.length ? text.indexOf('"', stop) : -1;
        continue;
      }
      // The key is left as it is; its value (a literal, an object) is read on.
      free = end;
      at = text.indexOf('"', end);
      continue;
    }
    const content = decoded ?? literal.slice(1, literal.charCodeAt(end - 1 - at) === QUOTE ? -1 : undefined);
    if (literal.includes('\\') || content.includes('=')) {
      const redacted = judge.nested(content, depth + 1);
      if (redacted !== content) {
        out += `${text.slice(copied, at)}${decoded === undefined ? `"${redacted}"` : JSON.stringify(redacted)}`;
        copied = end;
      }
    }
    free = end;
    at = end < text.length ? text.indexOf('"', end) : -1;
  }
  flushFree(text.length);
  return copied === 0 ? text : out + text.slice(copied);
}

/** Percent-decoding as a form or query is read (`+` is a space); text that is no valid encoding stays as it is. */
export function formDecode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text
      .replace(/\+/g, ' ')
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}

/** A value written back into a query or a form: encoded, the stand-ins' `$`, `[` and `]` kept readable. */
const formEncode = (text: string): string =>
  encodeURIComponent(text).replace(/%24/g, '$').replace(/%5B/g, '[').replace(/%5D/g, ']');

/** The parameters of a query string or form body (`a=1&b=2`), each judged by its decoded name. */
function redactParameters(query: string, judge: ValueJudge, depth: number): string {
  let changed = false;
  const parameters = query.split('&').map((parameter) => {
    const equals = parameter.indexOf('=');
    // No name, or no value: nothing to judge.
    if (equals <= 0 || equals === parameter.length - 1) return parameter;
    const rawName = parameter.slice(0, equals);
    const rawValue = parameter.slice(equals + 1);
    const value = formDecode(rawValue);
    const name = formDecode(rawName);
    let replaced = judge.named(name, value);
    if (replaced === undefined && name !== rawName) replaced = judge.named(rawName, value);
    if (replaced === undefined) replaced = /[=%\\"?&]/.test(value) ? judge.nested(value, depth + 1) : value;
    if (replaced === value) return parameter;
    changed = true;
    return `${rawName}=${formEncode(replaced)}`;
  });
  return changed ? parameters.join('&') : query;
}

/** Runs of free text that may be a URL, a query string or a form body: split at spaces, quotes and brackets. */
const TOKEN = /[^\s'"<>`(){}]+/g;

/** Every query string (after a `?`) and form (`name=value&…`) in free text, judged by parameter. */
export function redactForms(text: string, judge: ValueJudge, depth: number): string {
  return text.replace(TOKEN, (token) => {
    if (!token.includes('=')) return token;
    const question = token.indexOf('?');
    if (question < 0) return redactParameters(token, judge, depth);
    const hash = token.indexOf('#', question);
    const end = hash < 0 ? token.length : hash;
    const query = token.slice(question + 1, end);
    const redacted = redactParameters(query, judge, depth);
    return redacted === query ? token : `${token.slice(0, question + 1)}${redacted}${token.slice(end)}`;
  });
}

/** The boundary of a multipart body: from its Content-Type, else from its first line (`--boundary`). */
export function multipartBoundary(contentType: string | undefined, text: string): string | undefined {
  const given =
    contentType && /^\s*multipart\//i.test(contentType)
      ? /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
      : undefined;
  if (given) return given[1] ?? given[2];
  const first = /^--([!-~]{1,70})\r?\n/.exec(text);
  return first && text.includes(`--${first[1]}`, first[0].length) ? first[1] : undefined;
}

/** A Content-Disposition's name parameter, undone as a server might read it: quoted, escaped, percent- or RFC 8187-encoded. */
function partNames(headers: string): string[] {
  const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
  const names: string[] = [];
  for (const [, quoted, token, extended] of disposition.matchAll(
    /;\s*name(?:="((?:[^"\\]|\\.)*)"|=([^;\s]*)|\*=(?:[^']*'[^']*')?([^;\s]*))/gi,
  )) {
    const name = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (token ?? extended ?? '');
    names.push(name, formDecode(name));
  }
  return names;
}

/** Each part of a multipart body judged by its name; a part with no judged name is read for what it holds. */
export function redactMultipart(text: string, boundary: string, judge: ValueJudge, depth: number): string {
  const delimiter = `--${boundary}`;
  const pieces = text.split(delimiter);
  let changed = false;
  for (let index = 1; index < pieces.length; index++) {
    const piece = pieces[index] as string;
    const headEnd = piece.search(/\r?\n\r?\n/);
    if (headEnd < 0 || piece.startsWith('--')) continue;
    const bodyStart = piece.indexOf('\n', piece.indexOf('\n', headEnd) + 1) + 1;
    // The line break before the next delimiter belongs to the delimiter, not to the body.
    const trailer = /\r?\n$/.exec(piece)?.[0] ?? '';
    const body = piece.slice(bodyStart, piece.length - trailer.length);
    let replaced: string | undefined;
    for (const name of partNames(piece.slice(0, headEnd))) {
      replaced = judge.named(name, body);
      if (replaced !== undefined) break;
    }
    replaced ??= judge.nested(body, depth + 1);
    if (replaced === body) continue;
    pieces[index] = `${piece.slice(0, bodyStart)}${replaced}${trailer}`;
    changed = true;
  }
  return changed ? pieces.join(delimiter) : text;
}
