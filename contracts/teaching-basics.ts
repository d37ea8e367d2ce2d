import { ConfigError } from '../spec/index.ts';
import { basic, bearer, jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, pathOf, payoutBody, transferBody } from './teaching-bodies.ts';
import { dataOf, type Teacher } from './teaching-context.ts';

/** A bearer token no sandbox issued: the redactor keeps it, so the recording shows it was refused as such. */
export const NEVER_ISSUED_TOKEN = 'pacu-never-issued-teaching-session';
/** Added to the client secret for the wrong-secret request (the recording keeps the suffix, not the secret). */
const WRONG_SECRET_SUFFIX = '-pacu-wrong';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;
/** The paging query names clients send: a sandbox ignores the names it does not know. */
export const PAGING_QUERIES = ['page=2&per_page=1', 'page=2&page_size=1', 'offset=1&limit=1'] as const;

/** Tokens, the user list, the reads the session has ids for, and the refusals of bad credentials. */
export async function teachAccess(teacher: Teacher, baseUrl: string): Promise<void> {
  const token = await teacher.tokenOf(
    'token lifetime and type, granted scope, base path, content type',
    teacher.allScopes,
  );
  if (!token)
    throw new ConfigError(
      `pacu: the token request to ${baseUrl} was refused: check --client-id and --client-secret`,
    );
  await teacher.tokenOf(
    'the refusal of a wrong client secret',
    teacher.allScopes,
    `${teacher.clientSecret}${WRONG_SECRET_SUFFIX}`,
  );
  await teacher.send('the refusal of another grant type', {
    method: 'POST',
    path: pathOf('getAccessToken'),
    headers: { ...FORM, ...basic(teacher.clientId, teacher.clientSecret) },
    body: 'grant_type=password&scope=card',
  });
  const users = await teacher.send('paging defaults and the user records', {
    method: 'GET',
    path: pathOf('listUsers'),
    headers: await teacher.withToken(),
  });
  const page = dataOf(users);
  if (page) teacher.found.firstPage = page;
  const first = (page?.items as Array<{ user_id?: unknown }> | undefined)?.[0]?.user_id;
  teacher.found.userId = teacher.ids.userId ?? (typeof first === 'string' ? first : undefined);
  for (const query of PAGING_QUERIES) {
    const answer = await teacher.send('paging query names', {
      method: 'GET',
      path: `${pathOf('listUsers')}?${query}`,
      headers: await teacher.withToken(),
    });
    teacher.found.pages = { ...teacher.found.pages, [query]: dataOf(answer) };
  }
  await teacher.send('whether a read needs a token, and the refusal of a request without one', {
    method: 'GET',
    path: pathOf('listUsers'),
    headers: {},
  });
  const { ids } = teacher;
  const reads: Array<[string, string | undefined]> = [
    [
      'the p2p status record',
      teacher.found.userId && pathOf('getP2pStatus', { user_id: teacher.found.userId }),
    ],
    ['the virtual card record', ids.cardId && pathOf('getVirtualCard', { card_id: ids.cardId })],
    [
      'the card transaction record',
      ids.cardId &&
        ids.cardTransactionId &&
        pathOf('getCardTransaction', { card_id: ids.cardId, transaction_id: ids.cardTransactionId }),
    ],
    [
      'the push-to-card record',
      ids.pushToCardId && pathOf('getPushToCardPayment', { transaction_id: ids.pushToCardId }),
    ],
    [
      'the refusal of an unknown id in a path',
      pathOf('getVirtualCard', { card_id: `pacu-unknown-card-${teacher.tag}` }),
    ],
    ['the refusal of a path of no operation', `/pacu-no-such-path-${teacher.tag}`],
  ];
  for (const [teaches, path] of reads)
    if (path) await teacher.send(teaches, { method: 'GET', path, headers: await teacher.withToken() });
}

/** The account the session pays from, and the transfer and payout records with their refusals. */
export async function teachPayments(teacher: Teacher): Promise<void> {
  const { found } = teacher;
  if (found.userId) {
    const account = await teacher.send(
      'the account record and its ids',
      jsonRequest(
        'POST',
        pathOf('createAccount'),
        { hold_balance: true, user_id: found.userId },
        await teacher.withToken(),
      ),
    );
    const made = dataOf(account)?.account_id;
    found.accountId = teacher.ids.accountId ?? (typeof made === 'string' ? made : undefined);
    await teacher.send(
      'the refusal of an unknown id in a body',
      jsonRequest(
        'POST',
        pathOf('createAccount'),
        { hold_balance: true, user_id: `pacu-unknown-user-${teacher.tag}` },
        await teacher.withToken(),
      ),
    );
  }
  if (!found.accountId) return;
  const transfer = transferBody(teacher, 'ACH', CENTRAL_AMOUNT);
  const post = async (teaches: string, body: unknown, headers?: Record<string, string>) =>
    teacher.send(
      teaches,
      jsonRequest('POST', pathOf('usdTransfer'), body, headers ?? (await teacher.withToken())),
    );
  const made = await post(
    'the transfer record: echoes, extra fields, id and timestamp forms, amounts',
    transfer,
  );
  if (made.status === 200) found.transfers = [...(found.transfers ?? []), transfer];
  await post('how an exact replay is answered', transfer);
  await post('a reference used again with another body', { ...transfer, amount: 99 });
  const { description: _description, ...bare } = transfer;
  await post('whether a field the request left out is in the record', {
    ...bare,
    reference: teacher.reference(),
  });
  const { amount: _amount, ...withoutAmount } = transfer;
  await post('the refusal of a body without a required field', {
    ...withoutAmount,
    reference: teacher.reference(),
  });
  await teacher.send('whether a JSON body labelled text/plain is read', {
    method: 'POST',
    path: pathOf('usdTransfer'),
    headers: { ...(await teacher.withToken()), 'content-type': 'text/plain' },
    body: JSON.stringify({ ...transfer, reference: teacher.reference() }),
  });
  await post(
    'the refusal of a token never issued',
    { ...transfer, reference: teacher.reference() },
    bearer(NEVER_ISSUED_TOKEN),
  );
  await teacher.send(
    'the wallet payout record',
    jsonRequest('POST', pathOf('walletPayout'), payoutBody(teacher, 40), await teacher.withToken()),
  );
}
