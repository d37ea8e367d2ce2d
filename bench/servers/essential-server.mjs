// A plain transfer server that keeps the description's promises straight on node:http: the body
// parsed and its schema checked, the bearer token and the reference looked up, the body fingerprinted
// with pacu's own function, the transfer kept by id and by reference, the envelope written. Plain,
// not tuned: what the mock adds (limits, routing, journal, lifecycles, redaction) is seen beside it.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { fingerprint } from '../../dist/mock/internal/handlers/payments.js';
import { compileSchema, loadSpec } from '../../dist/spec/index.js';
import { announce } from './announce.mjs';

const spec = await loadSpec();
const check = compileSchema(spec.operation('usdTransfer').requestBody.schema);
const TOKEN = 'essential-token';
const tokens = new Map([[TOKEN, { clientId: 'essential', scopes: ['us_account'] }]]);
const byId = new Map();
const byReference = new Map();
const answer = (response, status, value) => {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
};
const refused = (response, status, message) =>
  answer(response, status, { success: false, message, data: null });

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const token = tokens.get((request.headers.authorization ?? '').slice(7));
    if (!token) return refused(response, 401, 'Unauthorized');
    // A read is bare node:http's answer behind the token check: only the transfer is compared.
    if (request.method !== 'POST')
      return answer(response, 200, {
        success: true,
        message: 'ok',
        data: { items: [], page: 1, total_count: 0, total_pages: 0 },
      });
    if (request.headers['content-type'] !== 'application/json') return refused(response, 400, 'content type');
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return refused(response, 400, 'malformed JSON');
    }
    if (check(body).length > 0) return refused(response, 400, 'Invalid request');
    const print = fingerprint(body);
    const existing = byReference.get(body.reference);
    if (existing) {
      if (existing.fingerprint !== print) return refused(response, 409, 'reference reused');
      return answer(response, 200, {
        success: true,
        message: 'Transfer already exists',
        data: existing.record,
      });
    }
    const record = {
      account_number: body.account_number,
      account_type: body.account_type,
      amount: body.amount,
      description: body.description ?? '',
      reference: body.reference,
      recipient_email: body.recipient_email,
      recipient_name: body.recipient_name,
      routing_number: body.routing_number,
      transaction_date: new Date().toISOString(),
      transaction_id: `txn_${randomUUID()}`,
      transaction_status: 'processing',
      transfer_type: body.transfer_type,
    };
    const stored = { record, clientId: token.clientId, fingerprint: print };
    byId.set(record.transaction_id, stored);
    byReference.set(record.reference, stored);
    answer(response, 200, { success: true, message: 'Transfer created', data: record });
  });
});
announce(server);
