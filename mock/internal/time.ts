/** ISO 8601 UTC at whole seconds, the form the spec's Timestamp examples use. */
export function isoTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
