import type { RoutedExchange } from '../../../http/index.ts';
import { requestFieldNames } from '../../../spec/index.ts';
import type { MockReply } from '../http-types.ts';
import { type LearningBehaviour, learnLeniency } from './learn-leniency.ts';
import type { ReportDraft } from './learned-report.ts';
import { consolidate, type RefusalFacts, type Refused } from './refusal-keys.ts';
import { messageOf, namesAField, refusedField, template, tokenRefusedLater } from './refusal-kinds.ts';
import { dataOf, entryOf } from './samples.ts';
import type { ScratchMock } from './scratch-mock.ts';

const replyMessage = (reply: MockReply): string =>
  String((reply.body as { message?: unknown } | undefined)?.message ?? reply.status);

/**
 * Send every recorded request to a scratch pacu mock: a refusal of both is learned as the sandbox
 * answered it, a success pacu refuses teaches what the sandbox let be, a refusal pacu would not make
 * is noted. What is learned goes into `behaviour` at once, so later exchanges meet the sandbox's state.
 */
export function learnRefusals(
  exchanges: readonly RoutedExchange[],
  names: readonly string[],
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
    const learned =
      message === undefined
        ? undefined
        : template(exchange, message, kind, exchange.operation && behaviour.scopes[exchange.operation.id]);
    refused.push({
      operation: exchange.operation?.id,
      kind,
      field: refusedField(exchange.operation, replyMessage(reply), [
        behaviour.paging.position,
        behaviour.paging.size,
      ]),
      status,
      message: learned,
      specific:
        learned !== undefined &&
        namesAField(
          [...names, ...(exchange.operation ? requestFieldNames(exchange.operation) : [])],
          learned,
        ),
      entry,
    });
  }
  return consolidate(refused, report);
}
