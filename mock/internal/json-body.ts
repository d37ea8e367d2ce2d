import { bodyText } from '../../http/index.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';
import { MAX_JSON_DEPTH } from './limits.ts';

/** Deepest nesting of arrays and objects in JSON text, found without parsing (no recursion to blow). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92)
        index++; // backslash: skip the escaped character
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 125 || code === 93) depth--;
  }
  return deepest;
}

/** Whether `text` holds more than `limit` brackets that open: with fewer, nothing nests deeper. */
function opensOver(text: string, limit: number): boolean {
  let opens = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1))
      if (++opens > limit) return true;
  }
  return false;
}

function mediaType(request: MockRequest): string {
  const type = request.headers['content-type'] ?? '';
  // The usual header, as most clients send it, needs no splitting.
  if (type === 'application/json' || type === 'application/x-www-form-urlencoded') return type;
  return type.split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The JSON body of a request, after the content-type, emptiness and depth checks the spec decides.
 * `anyContentType`: read it whatever its Content-Type says, as a recorded sandbox did.
 */
export function readJsonBody(request: MockRequest, anyContentType = false): unknown {
  if (!anyContentType && mediaType(request) !== 'application/json') {
    throw new MockHttpError(
      400,
      `Invalid request: Content-Type must be application/json, got ${request.headers['content-type'] ?? 'none'}`,
      undefined,
      'content-type',
    );
  }
  const text = bodyText(request);
  if (text.trim() === '') throw new MockHttpError(400, 'Invalid request: the request body is empty');
  // Counting brackets is a native search; the character walk runs only for a body with many.
  if (opensOver(text, MAX_JSON_DEPTH) && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new MockHttpError(400, `Invalid request: JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MockHttpError(400, `Invalid request: malformed JSON (${(error as Error).message})`);
  }
}

/** The form body of the token request, as text (Prism validates form text itself). */
export function readFormBody(request: MockRequest): string {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new MockHttpError(
      400,
      `Invalid request: Content-Type must be application/x-www-form-urlencoded, got ${request.headers['content-type'] ?? 'none'}`,
      undefined,
      'content-type',
    );
  }
  const text = bodyText(request);
  if (text.trim() === '') throw new MockHttpError(400, 'Invalid request: the request body is empty');
  for (const part of text.split('&')) {
    try {
      decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw new MockHttpError(
        400,
        `Invalid request: the form body is not valid percent-encoding near ${JSON.stringify(part.slice(0, 40))}`,
      );
    }
  }
  return text;
}
