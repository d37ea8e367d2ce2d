/** The `type/subtype` of a Content-Type header, lower-cased, parameters dropped; '' when absent. */
export function essence(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const end = contentType.indexOf(';');
  return (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/**
 * True when a Content-Type names JSON as a media type (RFC 6838): `application/json` with any
 * parameters (`; charset=utf-8`), or a structured `+json` suffix such as `application/problem+json`.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = essence(contentType);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
