// The tuned transfer server (decision 201): the plain server's work, written for speed by a helper
// who had not read the mock. One object per kept transfer (the record and the request facts it does
// not echo), a replay compared field by field, ids from a random prefix and a counter, the answer's
// JSON written by hand. It shows what the work allows; the mock is measured beside it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { compileSchema, loadSpec } from '../../dist/spec/index.js';
import { announce } from './announce.mjs';
import { agreesWithPacu, validTransfer } from './tuned-check.mjs';

const operation = (await loadSpec()).operation('usdTransfer');
const example = { ...operation.requestBody.examples.ach, transfer_type: 'WIRE' };
if (!agreesWithPacu(compileSchema(operation.requestBody.schema), example, 20_000))
  throw new Error("the tuned server's check no longer agrees with pacu's on usdTransfer's body");
const tokens = new Map([['essential-token', { clientId: 'essential', scopes: ['us_account'] }]]);
// KEPT for the life of the process: by id (the id's counter indexes this array) and by reference.
const byId = [];
const byReference = new Map();
const ID_PREFIX = `txn_${randomBytes(6).toString('hex')}_`;
const ECHOED = new Set([
  'account_id',
  'account_number',
  'account_type',
  'amount',
  'description',
  'reference',
  'recipient_email',
  'recipient_name',
  'routing_number',
  'transfer_type',
]);

class Transfer {
  constructor(body, id, date, clientId) {
    this.account_number = body.account_number;
    this.account_type = body.account_type;
    this.amount = body.amount;
    this.description = body.description ?? '';
    this.reference = body.reference;
    this.recipient_email = body.recipient_email;
    this.recipient_name = body.recipient_name;
    this.routing_number = body.routing_number;
    this.transaction_date = date;
    this.transaction_id = id;
    this.transaction_status = 'processing';
    this.transfer_type = body.transfer_type;
    // Not in the record's answer: what idempotency compares beyond the echoed fields, and the owner.
    this.accountId = body.account_id;
    this.descriptionSent = body.description !== undefined;
    this.extras = null; // the request's other properties, when it had any
    this.clientId = clientId;
  }
}
// Keep amount a tagged field (the parsed number is shared, not boxed again per record).
new Transfer({ amount: null }, '', '', '');

/** Same JSON value, object key order irrelevant. */
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i];
    if (!Object.hasOwn(b, key) || !same(a[key], b[key])) return false;
  }
  return true;
}
/** The request's properties beyond the schema's, or null. */
function extrasOf(body) {
  let extras = null;
  for (const key in body) {
    if (ECHOED.has(key)) continue;
    extras ??= {};
    extras[key] = body[key];
  }
  return extras;
}
/** Is `body` (valid) the same request as the one that made `t`? */
function sameRequest(t, body) {
  return (
    body.account_id === t.accountId &&
    body.account_number === t.account_number &&
    body.account_type === t.account_type &&
    body.amount === t.amount &&
    body.routing_number === t.routing_number &&
    body.transfer_type === t.transfer_type &&
    body.reference === t.reference &&
    body.recipient_email === t.recipient_email &&
    body.recipient_name === t.recipient_name &&
    (body.description !== undefined) === t.descriptionSent &&
    (body.description ?? '') === t.description &&
    same(extrasOf(body) ?? {}, t.extras ?? {})
  );
}

let lastMs = 0;
let lastIso = '';
function isoNow() {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

// Bytes beyond one per UTF-16 unit in the strings quoted since the last answer began.
let extraBytes = 0;
function quoted(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x7f || c < 0x20 || c === 0x22 || c === 0x5c) {
      const json = JSON.stringify(text);
      extraBytes += Buffer.byteLength(json) - json.length;
      return json;
    }
  }
  return `"${text}"`;
}
const recordJson = (r) =>
  `{"account_number":"${r.account_number}","account_type":"${r.account_type}","amount":${r.amount},"description":${quoted(
    r.description,
  )},"reference":${quoted(r.reference)},"recipient_email":"${r.recipient_email}","recipient_name":${quoted(
    r.recipient_name,
  )},"routing_number":"${r.routing_number}","transaction_date":"${r.transaction_date}","transaction_id":"${
    r.transaction_id
  }","transaction_status":"processing","transfer_type":"${r.transfer_type}"}`;

const headers = ['content-type', 'application/json', 'content-length', 0];
function send(response, status, text) {
  headers[3] = text.length + extraBytes;
  extraBytes = 0;
  response.writeHead(status, headers);
  response.end(text);
}
const refused = (response, status, message) => {
  extraBytes = 0;
  send(response, status, `{"success":false,"message":${quoted(message)},"data":null}`);
};

function onData(chunk) {
  if (this.first === undefined) this.first = chunk;
  else if (this.more === undefined) this.more = [this.first, chunk];
  else this.more.push(chunk);
}
function onEnd() {
  const response = this.res;
  extraBytes = 0;
  const authorization = this.headers.authorization;
  const token = authorization?.startsWith('Bearer ') ? tokens.get(authorization.slice(7)) : undefined;
  if (token === undefined) return refused(response, 401, 'Unauthorized');
  if (this.method !== 'POST' || this.url !== '/v3/payments/usd/direct')
    return refused(response, 404, 'Not found');
  if (this.headers['content-type'] !== 'application/json') return refused(response, 400, 'content type');
  const raw = this.more !== undefined ? Buffer.concat(this.more) : this.first;
  let body;
  try {
    body = JSON.parse(raw === undefined ? '' : raw.toString());
  } catch {
    return refused(response, 400, 'malformed JSON');
  }
  if (!validTransfer(body)) return refused(response, 400, 'Invalid request');
  const existing = byReference.get(body.reference);
  if (existing !== undefined) {
    if (!sameRequest(existing, body)) return refused(response, 409, 'reference reused');
    return send(
      response,
      200,
      `{"success":true,"message":"Transfer already exists","data":${recordJson(existing)}}`,
    );
  }
  const record = new Transfer(body, ID_PREFIX + byId.length, isoNow(), token.clientId);
  // Ten echoed properties at most: any more are extras to compare on a replay.
  if (Object.keys(body).length > 10 || (body.description === undefined && Object.keys(body).length > 9))
    record.extras = extrasOf(body);
  byId.push(record);
  byReference.set(record.reference, record);
  send(response, 200, `{"success":true,"message":"Transfer created","data":${recordJson(record)}}`);
}
const server = createServer((request, response) => {
  request.res = response;
  request.first = undefined;
  request.more = undefined;
  request.on('data', onData);
  request.on('end', onEnd);
});
announce(server);
