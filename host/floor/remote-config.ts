import { createPublicKey, verify } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { answeredOrders, newestOrderMade, orderJournalled, type Ledger } from '../../ledger/index.js';
import { ORDER_KEYS, ORDER_TEXT_MAX, OrderCurrency } from '../../terms/config-order-terms.js';
import { IMMEDIATE_KEYS, refusal, type ChangeRefusal, type ConfigChanges } from '../config/config-changes.js';
import { describeIssues } from '../config/load-config.js';
import { inEnglish, said } from '../config/refusal-words.js';

// Configuration from the floor (issue 49 item 6; docs/backoffice.md): a change a back-office user
// proposed and a second one approved reaches the table as an order signed by the upstream. The
// table believes none of it on the upstream's word alone: the order must carry the upstream's
// Ed25519 signature (the key from the enrolment, which also checks its receipts) over this
// terminal's name and the order's exact text, fit its schema, name two different people, and
// pass the same guard as a change made at the table (ConfigChanges: the rule guard, the
// authorisation). A good order is journalled and made only when the next shoe is loaded (the
// station credit limit, which bears on no round, as it arrives: IMMEDIATE_KEYS); an
// order the upstream signed that the table refuses is journalled as `config.refused`, which the
// synced journal carries back to the back office. Each order of an answer is judged on its own:
// one the upstream signed that the table cannot read (longer than it takes, off its schema, a
// setting the back office never issues) is refused in the journal by its id, so the back office
// learns of it and stops sending it; the others are taken. An older order of a setting than one
// already made of it (held back on the way) is refused as superseded. An order that is not the
// upstream's is journalled nowhere (its text is a stranger's: no one on the path can make the
// table journal a refusal of an order the upstream never signed) and raises an alarm.
//
// The statement (the upstream's copy is upstream/receipts.ts, ReceiptSigner.signOrder):
//   Ed25519 over "macau-etg-upstream config order v1\n" TERMINAL "\n" ORDER-TEXT

export function orderStatement(terminal: string, order: string): string {
  return `macau-etg-upstream config order v1\n${terminal}\n${order}`;
}

const Who = z.string().regex(/^[a-z0-9][a-z0-9._-]{1,31}$/);

/**
 * An order as the upstream writes it (upstream/backoffice/config-requests.ts): one of the settings
 * the back office proposes (ORDER_KEYS). Version 2 names the currency an amount was proposed in
 * (`currency`, the table's as the upstream held it then: ORDER_CURRENCY_KEYS); version 1, an order
 * proposed before, names none and is read as before.
 */
export const ConfigOrder = z.strictObject({
  v: z.union([z.literal(1), z.literal(2)]),
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  terminalId: z.string().max(64),
  key: z.enum(ORDER_KEYS),
  after: z.unknown(),
  authorisation: z.string().trim().min(1).max(128),
  proposedBy: Who,
  proposedAt: z.iso.datetime({ offset: true }),
  approvedBy: Who,
  approvedAt: z.iso.datetime({ offset: true }),
  currency: OrderCurrency.optional(),
});
export type ConfigOrder = z.infer<typeof ConfigOrder>;

/** What names an order the table cannot read: enough to journal its refusal by id. */
const NamedOrder = z.looseObject({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  terminalId: z.string().max(64),
  key: z.string().min(1).max(128),
});
/** An order the refusal names: its id and setting, and the two people when they could be read. */
type Named = Pick<ConfigOrder, 'id' | 'terminalId'> & { key: string; proposedBy?: string; approvedBy?: string };

/** One order of an answer: its exact text and the upstream's signature over it (the text judged after the signature). */
const SignedOrder = z.strictObject({
  order: z.string(),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(200),
});

/** `POST /v1/config-orders`' answer: its orders, each judged on its own (the body's size is the sync client's to bound). */
export const OrdersAnswer = z.looseObject({ orders: z.array(z.unknown()).max(50) });

/** A `shoe.change` entry's body when a new shoe was loaded (not when the cut card came out). */
const ShoeLoaded = z.looseObject({ payload: z.looseObject({ event: z.literal('loaded') }) });

export interface RemoteConfigDeps {
  terminalId: string;
  /** The upstream's public key (DER, base64) from the enrolment; without it no order is believed. */
  publicKey: string | undefined;
  ledger: Ledger;
  changes: Pick<ConfigChanges, 'check' | 'change' | 'switchRuleSet' | 'currency'>;
  log: Logger;
  /** An answer or an order that is not the upstream's word: a technician must look. */
  onAlarm?: (message: string) => void;
}

/** Whether `signature` is the upstream's over `order` for `terminal`; never throws. */
export function orderSigned(publicKey: string, terminal: string, order: string, signature: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    const sig = Buffer.from(signature, 'base64');
    return sig.length === 64 && verify(null, Buffer.from(orderStatement(terminal, order), 'utf8'), key, sig);
  } catch {
    return false;
  }
}

/**
 * A signed order's text read: the order, or why the table cannot take it (longer than it takes,
 * not JSON, off its schema) with what it names, when it names an order for this table at all.
 */
export function readOrder(text: string): { ok: true; order: ConfigOrder } | { ok: false; named: Named | null; refusal: ChangeRefusal } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const order = text.length > ORDER_TEXT_MAX ? null : ConfigOrder.safeParse(json);
  if (order?.success) return { ok: true, order: order.data };
  const why = order
    ? refusal(said('orderNotValid', { issues: describeIssues(order.error.issues).slice(0, 500) }))
    : refusal(said('orderTooLong', { length: text.length, max: ORDER_TEXT_MAX }));
  const named = NamedOrder.safeParse(json);
  if (!named.success) return { ok: false, named: null, refusal: why };
  const { id, terminalId, key } = named.data;
  const proposedBy = Who.safeParse(named.data.proposedBy);
  const approvedBy = Who.safeParse(named.data.approvedBy);
  const people = { ...(proposedBy.success ? { proposedBy: proposedBy.data } : {}), ...(approvedBy.success ? { approvedBy: approvedBy.data } : {}) };
  return { ok: false, named: { id, terminalId, key, ...people }, refusal: why };
}

export class RemoteConfig {
  /** Orders accepted, waiting for the next shoe, by id, with the upstream's signature over each. */
  private readonly waiting = new Map<number, ConfigOrder>();
  private readonly signatures = new Map<number, string>();
  private readonly answered: Set<number>;
  /** Bad texts already reported: the upstream sends its answer at every heartbeat, the alarm is said once. */
  private readonly reported = new Set<string>();
  private readonly off: () => void;

  constructor(private readonly d: RemoteConfigDeps) {
    this.answered = answeredOrders(d.ledger);
    this.off = d.ledger.onAppended((entries) => {
      // After the append that journalled the new shoe has returned (a listener must not append inside it).
      if (entries.some((e) => e.type === 'shoe.change' && ShoeLoaded.safeParse(JSON.parse(e.body)).success)) queueMicrotask(() => this.atShoeChangeGuarded());
    });
  }

  /** The orders waiting for the next shoe, oldest first. */
  pending(): ConfigOrder[] {
    return [...this.waiting.values()].sort((a, b) => a.id - b.id);
  }

  /** The upstream's answer to `/v1/config-orders`, as it came: each order judged on its own. */
  receive(answer: unknown): void {
    const parsed = OrdersAnswer.safeParse(answer);
    if (!parsed.success) return this.alarm('answer', "the upstream's configuration orders do not fit their schema: none is taken");
    for (const one of parsed.data.orders) {
      const entry = SignedOrder.safeParse(one);
      if (!entry.success) this.alarm('entry', "an order in the upstream's answer is not an order and its signature: that one is not taken");
      else this.take(entry.data.order, entry.data.signature);
    }
  }

  close(): void {
    this.off();
  }

  private take(text: string, signature: string): void {
    const key = this.d.publicKey;
    if (!key)
      return this.alarm(`key:${signature}`, 'a configuration order came, but the enrolment gave no upstream key to check it with: refused (enrol again)');
    // The signature first, over the text as it came, however long: nothing unsigned is read, let alone journalled.
    if (!orderSigned(key, this.d.terminalId, text, signature))
      return this.alarm(`sig:${signature}`, "a configuration order does not carry the upstream's signature for this terminal: refused");
    const read = readOrder(text);
    if (!read.ok) return this.unreadable(read.named, read.refusal, signature);
    const o = read.order;
    if (o.terminalId !== this.d.terminalId) return this.alarm(`terminal:${signature}`, `a configuration order for terminal ${o.terminalId} came here: refused`);
    if (this.answered.has(o.id) || this.waiting.has(o.id)) return;
    if (o.proposedBy === o.approvedBy) return this.refuse(o, refusal(said('orderSamePerson')));
    const currency = this.otherCurrency(o);
    if (currency) return this.refuse(o, currency);
    const superseded = this.superseded(o);
    if (superseded) return this.refuse(o, superseded);
    const check = this.d.changes.check(o.key, o.after, o.authorisation);
    if (!check.ok) return this.refuse(o, check);
    // The credit limit waits for no shoe: a limit lowered from the floor holds from the next credit in.
    if ((IMMEDIATE_KEYS as ReadonlySet<string>).has(o.key)) return this.makeNow(o);
    this.waiting.set(o.id, o);
    this.signatures.set(o.id, signature);
    this.d.log.info(
      { order: o.id, key: o.key, proposedBy: o.proposedBy, approvedBy: o.approvedBy },
      'configuration order accepted: it is made at the next shoe',
    );
  }

  /** An order of a key in effect at once (IMMEDIATE_KEYS), checked already: journalled naming the order and made, or refused. */
  private makeNow(o: ConfigOrder): void {
    const r = this.journalling(o, () =>
      this.d.changes.change(o.key, o.after, { who: o.proposedBy, witness: o.approvedBy, authorisation: o.authorisation, order: o.id }),
    );
    // The journal refused it: made when the upstream sends it again, if the journal does not hold it.
    if (r === null) return;
    if (!r.ok) return this.refuse(o, r);
    this.answered.add(o.id);
    this.d.log.info({ order: o.id, key: o.key, status: r.status, seq: r.seq }, 'configuration order journalled and made as it arrived');
  }

  /**
   * A signed order the table cannot read: refused in the journal by the id it names (the back
   * office then shows it refused and sends it no more), or, naming none, an alarm only.
   */
  private unreadable(named: Named | null, why: ChangeRefusal, signature: string): void {
    if (!named) return this.alarm(`unnamed:${signature}`, `a signed configuration order names no order this table could answer: ${why.reason.slice(0, 300)}`);
    if (named.terminalId !== this.d.terminalId)
      return this.alarm(`terminal:${signature}`, `a configuration order for terminal ${named.terminalId} came here: refused`);
    if (this.answered.has(named.id) || this.waiting.has(named.id)) return;
    this.refuse(named, why);
  }

  /**
   * A refusal when the order's amounts were proposed in another currency than this table's (code or
   * minor-unit exponent): its minor units would be taken as this currency's (a table's currency
   * changes with its configuration file and a restart; the order was proposed before). An order
   * that names none (v1) is taken as before.
   */
  private otherCurrency(o: ConfigOrder): ChangeRefusal | null {
    const own = this.d.changes.currency();
    if (!o.currency || (o.currency.code === own.code && o.currency.exponent === own.exponent)) return null;
    const words = { ordered: o.currency.code, orderedDigits: o.currency.exponent, own: own.code, ownDigits: own.exponent };
    return refusal(said('orderOtherCurrency', words));
  }

  /** A refusal when a newer order of the same setting was made already (an older one, held back on the way, would undo it). */
  private superseded(o: ConfigOrder): ChangeRefusal | null {
    const newer = newestOrderMade(this.d.ledger).get(o.key);
    return newer !== undefined && newer > o.id ? refusal(said('orderSuperseded', { newer })) : null;
  }

  /**
   * A new shoe: every waiting order made, in order: a limit as ConfigChanges makes it (held until
   * no round is in play), a rule set switched now, between shoes, the game rebuilt under it
   * (`switchRuleSet`: journalled with the order and the upstream's signature over it), or refused.
   */
  /** In a microtask, where a throw ends the host: what was not made waits for the next shoe, the throw logged. */
  private atShoeChangeGuarded(): void {
    try {
      this.atShoeChange();
    } catch (err) {
      this.d.log.error(
        { err, waiting: this.waiting.size },
        'configuration orders at the shoe change: stopped by a failure; what was not made waits for the next shoe',
      );
    }
  }

  private atShoeChange(): void {
    for (const o of this.pending()) {
      this.waiting.delete(o.id);
      const signature = this.signatures.get(o.id);
      this.signatures.delete(o.id);
      const by = { who: o.proposedBy, witness: o.approvedBy, authorisation: o.authorisation, order: o.id };
      const superseded = this.superseded(o);
      if (superseded) {
        this.refuse(o, superseded);
        continue;
      }
      const r = this.journalling(o, () =>
        o.key === 'profile' || o.key === 'profileOptions'
          ? this.d.changes.switchRuleSet(o.key, o.after, { ...by, ...(signature ? { signature } : {}) })
          : this.d.changes.change(o.key, o.after, by),
      );
      // Refused by the journal and not in it, or not at this shoe (a round in play, chips on the spots): at the next one.
      const wait = r === null ? (this.answered.has(o.id) ? null : 'the journal refused it') : !r.ok && r.wait ? r.reason : null;
      if (wait !== null) {
        this.waiting.set(o.id, o);
        if (signature) this.signatures.set(o.id, signature);
        this.d.log.warn({ order: o.id, key: o.key, reason: wait }, 'configuration order not made at this shoe: it waits for the next');
      } else if (r?.ok) {
        this.answered.add(o.id);
        this.d.log.info({ order: o.id, key: o.key, status: r.status, seq: r.seq }, 'configuration order journalled at the shoe change');
        // Made, but its game not built: the table takes nothing until a start, which someone must make.
        if ('say' in r) this.alarm(`restart:${o.id}`, `configuration order ${o.id} (${o.key}): ${inEnglish(r.say)}`);
      } else if (r) {
        this.refuse(o, r);
      }
    }
  }

  /**
   * `make` run, or null when the journal refused a write inside it (a full disk: the ledger's own
   * fault says so): the order is then answered if the journal holds it made, its `config.change`
   * (and, for a rule set switched at a shoe, the record the switch waits for, written in the
   * change's own transaction: config-changes.ts `journalSwitch`) written before the refusal, so it
   * is in effect as a start would make it and never made twice when the upstream sends it again;
   * else it is not answered, and is made when it comes again (a rule set whose record was refused:
   * neither written, made at the next shoe).
   */
  private journalling<R>(o: ConfigOrder, make: () => R): R | null {
    try {
      return make();
    } catch (err) {
      const journalled = orderJournalled(this.d.ledger, o.id, o.key === 'profile' || o.key === 'profileOptions');
      if (journalled) this.answered.add(o.id);
      this.d.log.error({ err, order: o.id, key: o.key, journalled }, 'configuration order: the journal refused a write while it was made');
      return null;
    }
  }

  /** Journals the refusal with its English and what it says to a person (the back office shows the latter in its reader's language). */
  private refuse(o: Named, r: Pick<ChangeRefusal, 'reason' | 'say'>): void {
    const reason = r.reason;
    const people = { ...(o.proposedBy ? { who: o.proposedBy } : {}), ...(o.approvedBy ? { witness: o.approvedBy } : {}) };
    try {
      this.d.ledger.append({
        type: 'config.refused',
        payload: { order: o.id, key: o.key, ...people, reason: reason.slice(0, 2000), say: r.say },
      });
    } catch (err) {
      // Answered only once journalled: the upstream sends it again and it is refused then.
      this.d.log.error({ err, order: o.id, key: o.key }, 'configuration order: the journal refused its refusal');
      return;
    }
    this.answered.add(o.id);
    this.d.log.warn({ order: o.id, key: o.key, reason }, 'configuration order refused');
    // The upstream signed it and the table will not make it: someone must look (the back office lists it refused too).
    this.alarm(`refused:${o.id}`, `configuration order ${o.id} (${o.key}) refused by this table: ${reason.slice(0, 500)}`);
  }

  private alarm(id: string, message: string): void {
    if (this.reported.has(id)) return;
    if (this.reported.size > 1000) this.reported.clear();
    this.reported.add(id);
    this.d.log.error({ alarm: 'config-order' }, message);
    try {
      this.d.onAlarm?.(message);
    } catch (err) {
      // Its fault refused (a full journal): said again when its cause comes again, not thrown into the shoe change or the sync.
      this.reported.delete(id);
      this.d.log.error({ err, alarm: 'config-order' }, 'the configuration order alarm could not be raised');
    }
  }
}

/**
 * At start: the sync client's orders (`configOrders`, set on `events`) go to a RemoteConfig over
 * the table's changes, checked with the upstream's key from the enrolment. Null without an upstream.
 */
export function routeConfigOrders(
  sync: { readonly upstreamKey: string | undefined } | null,
  events: { configOrders: (answer: unknown) => void },
  deps: Omit<RemoteConfigDeps, 'publicKey'>,
): RemoteConfig | null {
  if (!sync) return null;
  const remote = new RemoteConfig({ ...deps, publicKey: sync.upstreamKey });
  events.configOrders = (answer) => remote.receive(answer);
  return remote;
}
