// The tuned server's check of usdTransfer's request body, written by hand with Ajv's semantics:
// lengths in code points, ajv-formats' full email pattern, pacu's decimals keyword, extra properties
// allowed as the schema allows them. `agreesWithPacu` holds it to pacu's compiled check at start.
import { seededRandom } from '../../dist/mock/internal/random.js';
import { hasAtMostDecimals } from '../../dist/spec/index.js';

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

function codePoints(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      if ((str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}
// A string of UTF-16 length <= max has at most max code points; only longer ones are counted.
const atMost = (s, max) => s.length <= max || codePoints(s) <= max;

function digits(s, min, max) {
  const n = s.length;
  if (n < min || n > max) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

export function validTransfer(b) {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
  let v = b.account_id;
  if (typeof v !== 'string' || v.length < 1 || !atMost(v, 64)) return false;
  v = b.account_number;
  if (typeof v !== 'string' || !digits(v, 4, 17)) return false;
  v = b.account_type;
  if (v !== 'CHECKING' && v !== 'SAVINGS' && v !== 'BUSINESS') return false;
  v = b.amount;
  if (typeof v !== 'number' || !(v > 0) || !(v <= 1000000) || !hasAtMostDecimals(v, 2)) return false;
  v = b.routing_number;
  if (typeof v !== 'string' || !digits(v, 9, 9)) return false;
  v = b.transfer_type;
  if (v !== 'ACH' && v !== 'WIRE') return false;
  v = b.reference;
  if (typeof v !== 'string' || v.length < 1 || !atMost(v, 64)) return false;
  v = b.recipient_email;
  if (typeof v !== 'string' || !atMost(v, 254) || !EMAIL.test(v)) return false;
  v = b.recipient_name;
  if (typeof v !== 'string' || v.length < 1 || !atMost(v, 140)) return false;
  v = b.description;
  if (v !== undefined && (typeof v !== 'string' || !atMost(v, 255))) return false;
  return true;
}

const VALUES = [
  '',
  'a',
  '1234',
  '123456789',
  '12345678901234567',
  '123456789012345678',
  'CHECKING',
  'SAVINGS',
  'BUSINESS',
  'ACH',
  'WIRE',
  'wire',
  'a@b.co',
  'a@b',
  'x y@z.com',
  'j.d@ex-ample.org',
  '\u{1F600}',
  '\u{1F600}'.repeat(65),
  'r'.repeat(64),
  'r'.repeat(65),
  'n'.repeat(140),
  'n'.repeat(141),
  'd'.repeat(255),
  'd'.repeat(256),
  0,
  -1,
  0.01,
  0.001,
  1e-7,
  1e6,
  1e6 + 0.01,
  12.5,
  3,
  1e21,
  true,
  null,
  [],
  {},
  undefined,
];

/**
 * Whether the hand-written check gives pacu's verdict on the example and on bodies that change one
 * or two of its fields at random: a description that moved on makes the tuned server refuse to start.
 */
export function agreesWithPacu(pacuCheck, example, bodies) {
  const random = seededRandom(1);
  const keys = [...Object.keys(example), 'extra'];
  const pick = (list) => list[Math.floor(random() * list.length)];
  for (let index = 0; index <= bodies; index++) {
    const body = { ...example };
    if (index > 0)
      for (let changes = 1 + Math.floor(random() * 2); changes > 0; changes--)
        body[pick(keys)] = pick(VALUES);
    const parsed = JSON.parse(JSON.stringify(body));
    if (validTransfer(parsed) !== (pacuCheck(parsed).length === 0)) return false;
  }
  return true;
}
