import { cookieValues } from './credential-schemes.ts';
import { parseAuthorization } from './credentials.ts';
import { fieldVerdict, headerClass, type TeamNames } from './redaction-policy.ts';
import { multipartBoundary, redactJsonText, redactMultipart, type ValueJudge } from './structured-text.ts';

// The redactor's learning half: an exchange is read as redaction reads it (the same parsers, the
// same policy), and what its names say are credentials or card numbers is remembered, so their
// echo under any other name is redacted too (decision 113).

/** What the redactor hands its learning: its policy, its hint, and where learned values go. */
export interface LearnerParts {
  readonly team: TeamNames;
  readonly hinted: (text: string) => boolean;
  /** Remember a credential (values too short to be one are left). */
  readonly learn: (value: string | undefined) => void;
  /** Remember a card number, to be masked wherever it shows up. */
  readonly learnCard: (value: string) => void;
  readonly maxDepth: number;
}

/** Learning from a header's value and from a body's fields. */
export interface Learner {
  learnHeader(name: string, value: string): void;
  learnFields(body: string, depth?: number, contentType?: string): void;
}

export function createLearner({ team, hinted, learn, learnCard, maxDepth }: LearnerParts): Learner {
  const learnHeader = (name: string, value: string): void => {
    switch (headerClass(name, team)) {
      case 'authorization': {
        const credentials = parseAuthorization(value);
        if (credentials?.scheme === 'bearer') learn(credentials.token);
        if (credentials?.scheme === 'basic') {
          learn(credentials.encoded);
          learn(credentials.password);
        }
        return;
      }
      case 'cookie':
      case 'set-cookie':
        for (const cookie of cookieValues(value, name.toLowerCase() === 'set-cookie')) learn(cookie);
        return;
      case 'secret':
        learn(value);
        return;
      default:
    }
  };
  const learning: ValueJudge = {
    named(name, value) {
      if (headerClass(name, team) !== 'plain') learnHeader(name, value);
      const verdict = fieldVerdict(name, team);
      if (verdict === 'secret') learn(value);
      else if (verdict === 'card-number') learnCard(value);
      return undefined;
    },
    whole(name, raw) {
      const verdict = fieldVerdict(name, team);
      if (verdict === 'secret' && /^-?\d+$/.test(raw)) learn(raw);
      else if (verdict === 'card-number') learnCard(raw);
      return undefined;
    },
    nested(value, depth) {
      learnFields(value, depth);
      return value;
    },
  };
  function learnFields(body: string, depth = 0, contentType?: string): void {
    if (depth > maxDepth || !hinted(body)) return;
    const boundary = multipartBoundary(contentType, body);
    if (boundary) redactMultipart(body, boundary, learning, depth);
    else redactJsonText(body, learning, depth);
  }
  return { learnHeader, learnFields };
}
