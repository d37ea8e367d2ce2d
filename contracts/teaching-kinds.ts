import { jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, pathOf, transferBody } from './teaching-bodies.ts';
import { dataOf, type Teacher } from './teaching-context.ts';

const ACCOUNT_TYPES = ['SAVINGS', 'BUSINESS'] as const;

/** A transfer sent, and kept for `--follow` when the sandbox took it. */
export async function sendTransfer(
  teacher: Teacher,
  teaches: string,
  body: Record<string, unknown>,
): Promise<number> {
  const answer = await teacher.send(
    teaches,
    jsonRequest('POST', pathOf('usdTransfer'), body, await teacher.withToken()),
  );
  if (answer.status === 200) teacher.found.transfers = [...(teacher.found.transfers ?? []), body];
  return answer.status;
}

/**
 * Each kind of record beside the happy path's: a WIRE transfer, each account type per transfer
 * type, an account that holds no balance (and a transfer from it), a transfer type not listed.
 */
export async function teachKinds(teacher: Teacher): Promise<void> {
  const { found } = teacher;
  if (!found.accountId) return;
  await sendTransfer(teacher, 'the WIRE transfer record', transferBody(teacher, 'WIRE', CENTRAL_AMOUNT));
  for (const type of ['ACH', 'WIRE'] as const)
    for (const accountType of ACCOUNT_TYPES)
      await sendTransfer(
        teacher,
        `whether ${type} transfers to ${accountType} accounts are taken`,
        transferBody(teacher, type, CENTRAL_AMOUNT, { account_type: accountType }),
      );
  // A field left out is learned from two answers of each kind: the happy path sent one ACH without.
  for (const type of ['ACH', 'WIRE', 'WIRE'] as const) {
    const { description: _left, ...bare } = transferBody(teacher, type, CENTRAL_AMOUNT);
    await sendTransfer(teacher, `whether ${type} records without description have one`, bare);
  }
  await teacher.send(
    'the refusal of a transfer type the description does not list',
    jsonRequest(
      'POST',
      pathOf('usdTransfer'),
      transferBody(teacher, 'ACH', CENTRAL_AMOUNT, { transfer_type: 'RTP' }),
      await teacher.withToken(),
    ),
  );
  if (!found.userId) return;
  const account = await teacher.send(
    'an account that holds no balance: its record',
    jsonRequest(
      'POST',
      pathOf('createAccount'),
      { hold_balance: false, user_id: found.userId },
      await teacher.withToken(),
    ),
  );
  const held = dataOf(account)?.account_id;
  if (typeof held === 'string')
    await teacher.send(
      'the refusal of funds taken from an account that holds no balance',
      jsonRequest(
        'POST',
        pathOf('usdTransfer'),
        transferBody(teacher, 'ACH', CENTRAL_AMOUNT, { account_id: held }),
        await teacher.withToken(),
      ),
    );
}
