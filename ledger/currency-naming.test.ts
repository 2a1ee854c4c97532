import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { CURRENCY_NAMING } from '../terms/currency-naming.js';
import { PAYLOADS } from './entries.js';

/**
 * The entries whose payload carries a currency but are not in terms/currency-naming.ts, and why:
 * a new entry naming a currency has to be put in the list or here, never forgotten.
 */
const NOT_LISTED: Readonly<Record<string, string>> = {
  'bill.escrow': 'a note held, not yet money of the table: the currency the acceptor claimed',
  'bill.return': 'a note given back: the currency it claimed, no money of the table',
  'bill.refused': 'a note refused: the currency it claimed, no money of the table',
  'ticket.redeem.approved': 'the authority approved it; the money moves with ticket.redeem.stacked',
  'transfer.complete': 'ends a transfer.out, which may be of a run before (another currency): the out named it',
  'transfer.reverse': 'gives back a transfer.out, which may be of a run before (another currency): the out named it',
  'transfer.refuse': "another table's offer refused (its currency may be the reason)",
  'transfer.alarm': 'what a peer claimed, believed or not',
  'power.reset': 'a start: read first, by currencyAt itself, where it names one',
  'bet.place': 'names the currency only from 7 December 2026: older ones are read by the run',
  'credit.cancel': 'names the currency only from 7 December 2026: older ones are read by the run',
  'handpay.request': 'names the currency only from 7 December 2026: older ones are read by the run',
  'handpay.confirm': 'names the currency only from 7 December 2026: older ones are read by the run',
  'aft.in': 'names the currency only from 7 December 2026: older ones are read by the run',
  'aft.out': 'names the currency only from 7 December 2026: older ones are read by the run',
};

interface Found {
  readonly path: string;
  /** In every branch of a union and never optional on the way. */
  readonly always: boolean;
}

/** Every field named `currency` in a schema, by its path from the payload. */
function currencies(schema: z.ZodType, at: readonly string[] = [], optional = false): Found[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
        ...(key === 'currency' ? [{ path: [...at, key].join('.'), always: !optional && !isOptional(field) }] : []),
        ...(key === 'currency' ? [] : currencies(field, [...at, key], optional)),
      ]);
    case 'optional':
    case 'nullable':
    case 'default':
      return currencies(def.innerType as z.ZodType, at, true);
    case 'readonly':
      return currencies(def.innerType as z.ZodType, at, optional);
    case 'array':
      return currencies(def.element as z.ZodType, [...at, '[]'], optional);
    case 'pipe':
      return currencies(def.in as z.ZodType, at, optional);
    case 'union': {
      const options = def.options as z.ZodType[];
      const each = options.map((o) => currencies(o, at, optional));
      const paths = new Set(each.flat().map((f) => f.path));
      return [...paths].map((path) => ({ path, always: each.every((fs) => fs.some((f) => f.path === path && f.always)) }));
    }
    case 'intersection':
      return [...currencies(def.left as z.ZodType, at, optional), ...currencies(def.right as z.ZodType, at, optional)];
    default:
      return [];
  }
}

function isOptional(field: z.ZodType): boolean {
  return field.safeParse(undefined).success;
}

const carrying = Object.entries(PAYLOADS as Record<string, z.ZodType>)
  .map(([type, schema]) => ({ type, found: currencies(schema) }))
  .filter((e) => e.found.length > 0);

test('every entry the list names always carries its currency where the list says', () => {
  for (const { type, path } of CURRENCY_NAMING) {
    assert.equal(path[0], 'payload', type);
    assert.match(type, /^[a-z][a-z.]*$/, 'a type is read into SQL');
    for (const key of path) assert.match(key, /^[a-z]+$/i, 'a key is read into SQL');
    const entry = carrying.find((e) => e.type === type);
    assert.ok(entry, `${type}: no payload schema of it carries a currency`);
    assert.deepEqual(
      entry.found.filter((f) => f.path === path.slice(1).join('.')),
      [{ path: path.slice(1).join('.'), always: true }],
      `${type}: its currency at ${path.join('.')}, in every payload`,
    );
  }
  assert.equal(new Set(CURRENCY_NAMING.map((n) => n.type)).size, CURRENCY_NAMING.length, 'each type once');
});

test('an entry whose payload carries a currency is in the list, or said here why not', () => {
  const listed = new Set(CURRENCY_NAMING.map((n) => n.type));
  const types = carrying.map((e) => e.type);
  assert.deepEqual(
    types.filter((type) => !listed.has(type) && !Object.hasOwn(NOT_LISTED, type)),
    [],
    "entries naming a currency in no list: add each to terms/currency-naming.ts (the table's money, always named) or to NOT_LISTED",
  );
  for (const type of Object.keys(NOT_LISTED)) {
    assert.ok(types.includes(type), `${type}: said not listed, but no payload of it carries a currency`);
    assert.ok(!listed.has(type), `${type}: both in the list and said not listed`);
  }
});
