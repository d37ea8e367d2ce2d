let lastSecond = Number.NaN;
let lastText = '';

/** ISO 8601 UTC at whole seconds, the form the spec's Timestamp examples use. */
export function isoTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Records made in one second share it: the text is made once a second, not once a record.
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}
