import type { ApiResponse } from './api-request.ts';
import type { RuleContext } from './rule.ts';

/** One call to a pacu mock's control API (`/__pacu` at the configured control URL), as plain data. */
export async function callControl(
  context: RuleContext,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<ApiResponse> {
  const url = new URL(`/__pacu${path}`, context.config.controlUrl);
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: {}, text, json, durationMs: 0 };
}
