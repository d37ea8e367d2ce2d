import type { RoutedExchange } from '../../../http/index.ts';
import type { OperationId } from '../../../spec/index.ts';
import type { LearnedRefusal, RefusalKind } from '../behaviour.ts';
import type { MockReply } from '../http-types.ts';
import { type LearningBehaviour, learnLeniency } from './learn-leniency.ts';
import type { ReportDraft } from './learned-report.ts';
import {
  ANYWHERE,
  messageOf,
  PACU_REFUSALS,
  REFUSAL_ABOUT,
  template,
  tokenRefusedLater,
} from './refusal-kinds.ts';
import { dataOf, entryOf } from './samples.ts';
import type { ScratchMock } from './scratch-mock.ts';

const replyMessage = (reply: MockReply): string =>
  String((reply.body as { message?: unknown } | undefined)?.message ?? reply.status);

interface Refused {
  readonly operation: OperationId | undefined;
  readonly kind: RefusalKind;
  readonly status: number;
  readonly message: string | undefined;
  readonly entry: number;
}

/** The learned refusals and what recorded successes showed pacu's mock to be stricter than the sandbox. */
export interface RefusalFacts {
  refusal(operation: OperationId | undefined, kind: RefusalKind): LearnedRefusal | undefined;
}

/**
 * Send every recorded request to a scratch pacu mock: a refusal of both is learned as the sandbox
 * answered it, a success pacu refuses teaches what the sandbox let be, a refusal pacu would not make
 * is noted. What is learned goes into `behaviour` at once, so later exchanges meet the sandbox's state.
 */
export function learnRefusals(
  exchanges: readonly RoutedExchange[],
  scratch: ScratchMock,
  behaviour: LearningBehaviour,
  report: ReportDraft,
): RefusalFacts {
  const refused: Refused[] = [];
  /** A transfer reference's first recorded transaction id. */
  const firstIds = new Map<string, unknown>();
  for (const exchange of exchanges) {
    const status = exchange.entry.response.status;
    const entry = entryOf(exchange);
    if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
      report.unlearned(
        [entry],
        `answered ${status || 'nothing'}: no choice of the sandbox's (a server error, or no answer)`,
      );
      continue;
    }
    if (status < 300 && status !== 200 && exchange.operation) {
      report.contradiction([entry], `answered ${status}: the description says every success answer is 200`);
      continue;
    }
    const reference = (exchange.requestJson as { reference?: unknown } | undefined)?.reference;
    const id =
      exchange.operation?.id === 'usdTransfer' && status === 200
        ? dataOf(exchange)?.transaction_id
        : undefined;
    let reply = scratch.answer(exchange);
    if (reply instanceof Error) {
      report.unlearned([entry], `pacu's mock cannot take this request again: ${reply.message}`);
      continue;
    }
    if (status === 200) {
      if (typeof reference === 'string' && !firstIds.has(reference) && id !== undefined)
        firstIds.set(reference, id);
      if (reply.status === 200 || !exchange.operation) continue;
      const why = reply.refusal;
      if (learnLeniency(exchange, reply, behaviour, firstIds, report)) {
        reply = scratch.answer(exchange);
        if (!(reply instanceof Error) && reply.status === 200) continue;
      }
      report.unlearned(
        [entry],
        `the sandbox took it where pacu's mock refuses it (${why ?? 'refused'}${reply instanceof Error ? '' : `: ${replyMessage(reply)}`})`,
      );
      continue;
    }
    if (status < 400) {
      report.unlearned([entry], `answered ${status} on a path of no operation: nothing to learn`);
      continue;
    }
    // A refusal of the sandbox's.
    const message = messageOf(exchange);
    if (tokenRefusedLater(exchange, reply)) {
      report.unlearned(
        [entry],
        `the sandbox refused a token it had issued (${status}${message ? ` "${message}"` : ''}), where pacu's mock ${reply.status === 200 ? 'takes the request' : `refuses it for another reason (${reply.refusal})`}: it had expired, most likely; not learned`,
      );
      continue;
    }
    if (reply.status === 200) {
      report.unlearned(
        [entry],
        `the sandbox refused it (${status}${message ? ` "${message}"` : ''}) where pacu's mock takes it`,
      );
      continue;
    }
    const kind = reply.refusal ?? 'invalid-request';
    if (
      kind === 'invalid-request' &&
      status !== 400 &&
      exchange.operation?.requestBody?.mediaType === 'application/json'
    ) {
      report.contradiction(
        [entry],
        `a body that breaks the request schema was answered ${status}: the description answers missing fields and invalid values with 400`,
      );
      continue;
    }
    refused.push({
      operation: exchange.operation?.id,
      kind,
      status,
      message: message && template(exchange, message, kind),
      entry,
    });
  }
  return consolidate(refused, report);
}

function consolidate(refused: readonly Refused[], report: ReportDraft): RefusalFacts {
  const byOperation = new Map<string, LearnedRefusal>();
  const anywhere = new Map<RefusalKind, LearnedRefusal>();
  const key = (operation: OperationId | undefined, kind: RefusalKind) => `${operation ?? ''}/${kind}`;
  const grouped = new Map<string, Refused[]>();
  for (const item of refused)
    grouped.set(key(item.operation, item.kind), [
      ...(grouped.get(key(item.operation, item.kind)) ?? []),
      item,
    ]);
  for (const [name, items] of grouped) {
    const [first] = items as [Refused, ...Refused[]];
    const agreeing = items.filter((item) => item.status === first.status);
    if (agreeing.length < items.length)
      report.unlearned(
        items.filter((item) => !agreeing.includes(item)).map((item) => item.entry),
        `${REFUSAL_ABOUT[first.kind]} was answered with another status than entry ${first.entry}'s ${first.status}: the first is learned`,
      );
    const messages = new Set(agreeing.map((item) => item.message));
    const message = messages.size === 1 ? first.message : undefined;
    byOperation.set(name, { status: first.status, message });
  }
  for (const kind of Object.keys(PACU_REFUSALS) as RefusalKind[]) {
    const items = refused.filter((item) => item.kind === kind);
    const statuses = new Set(items.map((item) => item.status));
    const entries = items.map((item) => item.entry);
    const where = [...new Set(items.map((item) => item.operation ?? 'any path'))].join(', ');
    if (items.length > 0 && statuses.size === 1 && ANYWHERE.has(kind)) {
      const [first] = items as [Refused];
      const learned = byOperation.get(key(first.operation, kind)) as LearnedRefusal;
      anywhere.set(kind, learned);
      report.learned(
        `refusal.${kind}`,
        REFUSAL_ABOUT[kind],
        learned,
        `${learned.status}${learned.message !== undefined ? ` "${learned.message}"` : ''} (seen on ${where})`,
        entries,
      );
    } else if (items.length > 0) {
      for (const item of items) {
        const learned = byOperation.get(key(item.operation, kind)) as LearnedRefusal;
        report.learned(
          `refusal.${item.operation ?? 'any'}.${kind}`,
          `${REFUSAL_ABOUT[kind]}, on ${item.operation ?? 'any path'}`,
          learned,
          `${learned.status}${learned.message !== undefined ? ` "${learned.message}"` : ''}`,
          [item.entry],
        );
      }
      if (!ANYWHERE.has(kind))
        report.kept(
          `refusal.${kind}`,
          `${REFUSAL_ABOUT[kind]}, elsewhere`,
          PACU_REFUSALS[kind],
          `${PACU_REFUSALS[kind]}`,
        );
    } else report.kept(`refusal.${kind}`, REFUSAL_ABOUT[kind], PACU_REFUSALS[kind], `${PACU_REFUSALS[kind]}`);
  }
  return {
    refusal: (operation, kind) => byOperation.get(key(operation, kind)) ?? anywhere.get(kind),
  };
}
