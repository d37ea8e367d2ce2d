import { hasScheme } from '../http/index.ts';
import type { InteractionOutcome } from './contract-report.ts';
import type { PactInteraction } from './pact-file.ts';

/** The provider-state expression for the token pacu's `a valid client` state issues. */
const TOKEN_EXPRESSION = ['$', '{accessToken}'].join('');

/** A literal bearer token no provider-state expression fills in: no provider ever issued it. */
function literalBearer(interaction: PactInteraction): boolean {
  const header = interaction.request.headers.authorization?.[0] ?? '';
  if (!hasScheme(header, 'bearer')) return false;
  const generators = (
    interaction.source.interaction.request as { generators?: { header?: Record<string, unknown> } }
  )?.generators?.header;
  const generated = Object.keys(generators ?? {}).some((name) => name.toLowerCase() === 'authorization');
  return !generated;
}

/**
 * Where users of Pact go wrong, said beside the failure it causes: a pact path that repeats the
 * target's base path (`/v3/v3/accounts`), and a pact that sends a literal bearer token.
 */
function verifyHints(interaction: PactInteraction, baseUrl: string): string[] {
  const hints: string[] = [];
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = interaction.request.path;
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`)))
    hints.push(
      `hint: the pact's path ${path} starts with ${basePath} and the target already ends in ${basePath}, so the request went to ${basePath}${path}: write pact paths relative to the base URL (${path.slice(basePath.length) || '/'})`,
    );
  if (literalBearer(interaction))
    hints.push(
      interaction.specVersion < 3
        ? `hint: this V2 pact sends a literal bearer token, which no provider issued, so it can never verify: V2 has no provider-state values; write the pact as V3 or V4 with Authorization "Bearer ${TOKEN_EXPRESSION}" from the state "a valid client"`
        : `hint: this pact sends a literal bearer token, which no provider issued: take it from the state "a valid client" with a provider-state expression "Bearer ${TOKEN_EXPRESSION}"`,
    );
  return hints;
}

/** Failed outcomes with the hints that explain them. */
export function withHints(outcomes: readonly InteractionOutcome[], baseUrl: string): InteractionOutcome[] {
  return outcomes.map((outcome) => {
    if (outcome.status !== 'failed') return outcome;
    const hints = verifyHints(outcome.interaction, baseUrl);
    return hints.length > 0 ? { ...outcome, reasons: [...outcome.reasons, ...hints] } : outcome;
  });
}
