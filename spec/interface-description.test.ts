import { describe, expect, it } from 'vitest';
import { type JSONSchema7, loadSpec } from './index.ts';
import {
  DESCRIPTION_FILE,
  DESCRIPTION_TEXT,
  SKIPPED_WITHOUT_DESCRIPTION,
} from './scripts/interface-description.ts';

/** Which schema each field table of the interface description is written down as. */
const TABLE_SCHEMAS: Record<string, string> = {
  'Response envelope': 'SuccessEnvelope',
  'Access token': 'AccessToken',
  'USD transfer request': 'UsdTransferRequest',
  'USD transfer record': 'UsdTransfer',
  'Wallet payout request': 'WalletPayoutRequest',
  'Wallet payout record': 'WalletPayout',
  'Account creation request': 'AccountCreationRequest',
  'Account record': 'Account',
  'Virtual card record': 'VirtualCard',
  'Virtual card transaction record': 'CardTransaction',
  'Push-to-card record': 'PushToCardPayment',
  'User list': 'UserList',
  User: 'User',
  'p2p identifier validation record': 'P2pStatus',
};

interface DescribedField {
  readonly table: string;
  readonly path: readonly string[];
  readonly type: string;
  readonly required?: boolean;
  readonly rules: string;
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** Every field of every "### heading" table, plus the one-line User definition. */
function parseFieldTables(text: string): DescribedField[] {
  const fields: DescribedField[] = [];
  const section = text.slice(
    text.indexOf('## Resources and their fields'),
    text.indexOf('### Gaps in the field'),
  );
  for (const block of section.split(/^### /m).slice(1)) {
    const heading = (block.split('\n')[0] ?? '').replace(/\s*\(.*$/, '').trim();
    const lines = block.split('\n').filter((line) => line.trim().startsWith('|'));
    const header = splitRow(lines[0] ?? '').map((cell) => cell.toLowerCase());
    for (const line of lines.slice(2)) {
      const cells = splitRow(line);
      const cell = (name: string): string => cells[header.indexOf(name)] ?? '';
      const requiredCell = header.includes('required') ? cell('required') : undefined;
      fields.push({
        table: heading,
        path: cell('field').replace(/`/g, '').split('.'),
        type: cell('type'),
        ...(requiredCell !== undefined ? { required: requiredCell.startsWith('yes') } : {}),
        rules: `${cell('type')} ${cell('rules')} ${cell('notes')}`.trim(),
      });
    }
    const userLine = block.split('\n').find((line) => line.startsWith('User: '));
    for (const match of userLine?.matchAll(/`(\w+)` \((\w+)\)/g) ?? []) {
      fields.push({ table: 'User', path: [match[1] ?? ''], type: match[2] ?? '', rules: '' });
    }
  }
  return fields;
}

/** Types a schema node allows, looking through allOf members too. */
function typesOf(schema: JSONSchema7): string[] {
  const own = schema.type ? [schema.type].flat() : [];
  return [...own, ...(schema.allOf ?? []).flatMap(typesOf)];
}

function enumOf(schema: JSONSchema7): readonly unknown[] | undefined {
  return schema.enum ?? schema.allOf?.map(enumOf).find(Boolean);
}

function resolve(schema: JSONSchema7, path: readonly string[]): JSONSchema7[] {
  const [head, ...rest] = path;
  if (head === undefined) return [schema];
  const properties = {
    ...schema.properties,
    ...Object.assign({}, ...(schema.allOf ?? []).map((m) => m.properties)),
  };
  const keys = head === '<rail>' ? ['ACH', 'RTP', 'WIRE'] : [head];
  return keys.flatMap((key) => (properties[key] ? resolve(properties[key], rest) : []));
}

function requiredOf(schema: JSONSchema7): string[] {
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap(requiredOf)];
}

const JSON_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
};

describe.skipIf(DESCRIPTION_TEXT === undefined)(
  `spec/openapi.yaml against the interface description (${DESCRIPTION_FILE})${SKIPPED_WITHOUT_DESCRIPTION}`,
  async () => {
    const spec = await loadSpec();
    const fields = parseFieldTables(DESCRIPTION_TEXT ?? '');

    it('parses every field table of the description', () => {
      expect(new Set(fields.map((field) => field.table))).toEqual(new Set(Object.keys(TABLE_SCHEMAS)));
      expect(fields.length).toBeGreaterThan(80);
    });

    it.each(fields.map((field) => [`${field.table}: ${field.path.join('.')}`, field] as const))(
      '%s is in the matching schema with the matching type',
      (_name, field) => {
        const schemaName = TABLE_SCHEMAS[field.table];
        expect(schemaName, `no schema mapped for table ${field.table}`).toBeDefined();
        const nodes = resolve(spec.schema(schemaName ?? ''), field.path);
        expect(nodes.length, `${schemaName} lacks ${field.path.join('.')}`).toBeGreaterThan(0);
        const expectedType = JSON_TYPES[(field.type.split(/[\s(]/)[0] ?? '').toLowerCase()];
        for (const node of nodes) {
          if (expectedType) expect(typesOf(node)).toContain(expectedType);
          if (/ISO 8601/.test(field.rules)) expect(node.format).toBe('date-time');
          if (/e-mail/.test(field.rules)) expect(node.format).toBe('email');
          const oneOf = field.rules.match(
            /One of ([A-Z, ]+)|one of ([a-z, ]+)|\b([A-Z]+), ([A-Z]+) or ([A-Z]+)\b|\b([A-Z]+) or ([A-Z]+)$/,
          );
          if (oneOf && field.type === 'string') {
            const listed = oneOf
              .slice(1)
              .filter(Boolean)
              .flatMap((part) => (part ?? '').split(/,\s*/))
              .map((value) => value.trim())
              .filter(Boolean);
            expect(enumOf(node)).toEqual(listed);
          }
        }
      },
    );

    it('requires exactly the fields the USD transfer request table marks as required', () => {
      const described = fields.filter((field) => field.table === 'USD transfer request');
      const required = requiredOf(spec.schema('UsdTransferRequest'));
      for (const field of described)
        expect(required.includes(field.path[0] ?? ''), field.path[0]).toBe(field.required);
    });
  },
);
