import { hash as digest } from 'node:crypto';
import { z } from 'zod';
import { chainHash } from './chain.js';

// The entries' effects, kept by the witness itself (issue 50 item 1): every account's balance,
// every meter and the open rounds' bets, folded from the bodies of the entries it witnessed — each
// body hashed and chained link by link to a head it signed, so what it folds is what it saw. It
// signs a checkpoint only when the state the host states there (ledger/checkpoint.ts) holds these
// exactly; a state made up at its head (a credit raised and the house lowered to match) is refused
// (`not-derived`). What the witness reads of a body is what the body itself says: its postings,
// its meter deltas and, for a bet or a round's close, the round and station it names; it does not
// derive the postings from the payload again (that is the ledger's replay, `verify --full`).
// The state's `table` (the game's folded state) and `at` are not the witness's to check.

const Int = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/** What the witness reads of an entry's canonical body (ledger/derive.ts `EntryBody`); the rest is not its business. */
const Body = z.looseObject({
  v: z.literal(1),
  terminal: z.string(),
  seq: z.number().int().positive(),
  type: z.string().max(64),
  payload: z.looseObject({}),
  postings: z.array(z.tuple([z.string().max(200), Int])).max(10_000),
  meters: z.array(z.tuple([z.string().max(200), z.string().max(200), Int])).max(10_000),
  credits: z
    .array(z.tuple([Int, Int, Int]))
    .max(10_000)
    .optional(),
});

/**
 * The most the effects may hold, in characters about as a checkpoint's state states them (each
 * balance, meter and open bet: its names and 24 for its numbers and punctuation): what one
 * checkpoint request can carry (wire.ts MAX_LINE_BYTES, 4 MiB). Effects past it could never be
 * checkpointed; a fold that would make them is refused (`bad-entry`), so nothing that reaches the
 * witness's socket can grow what it holds without limit (a review of 7 December). A table's are far
 * below: about 35 KB at 200 stations (docs/benchmarks.md).
 */
export const MAX_EFFECTS_CHARS = 4 * 1024 * 1024;
const PER_KEY = 24;

/** A bet of an open round: [roundId, station, seq, amount, credit before], as a checkpoint states it. */
export type OpenBet = [roundId: string, station: number, seq: number, amount: number, creditBefore: number];

/** The state a checkpoint states (ledger/checkpoint.ts `CheckpointState`), as the witness reads it. */
const State = z.strictObject({
  v: z.literal(1),
  terminal: z.string(),
  seq: z.number().int().nonnegative(),
  hash: Hex64,
  at: z.string().max(64),
  balances: z.array(z.tuple([z.string(), Int])),
  meters: z.array(z.tuple([z.string(), z.string(), Int])),
  openBets: z.array(z.tuple([z.string(), Int, Int, Int, Int])),
  table: z.unknown(),
});

/** The effects as the record keeps them (witness/record.ts, a `fold` line). */
export const EffectsSnapshot = z.strictObject({
  seq: z.number().int().nonnegative(),
  hash: Hex64,
  balances: z.array(z.tuple([z.string(), Int])),
  meters: z.array(z.tuple([z.string(), z.string(), Int])),
  openBets: z.array(z.tuple([z.string(), Int, Int, Int, Int])),
});
export type EffectsSnapshot = z.infer<typeof EffectsSnapshot>;

/** Why a body or a state was not taken; the witness answers it as a refusal. */
export class EffectsError extends Error {
  constructor(
    readonly reason: 'bad-entry' | 'bad-chain' | 'not-derived',
    message: string,
  ) {
    super(message);
  }
}

/** The effects of a terminal's journal up to entry `seq` (hash `hash`). */
export class Effects {
  private constructor(
    readonly terminal: string,
    public seq: number,
    public hash: string,
    private readonly balances: Map<string, number>,
    /** `meterKey(scope, name)` → value. */
    private readonly meters: Map<string, number>,
    /** roundId → its bets, in seq order. */
    private readonly bets: Map<string, OpenBet[]>,
    /** The size it holds, as MAX_EFFECTS_CHARS counts it. */
    private chars = sizeOf(balances, meters, bets),
  ) {}

  /** Before the first entry: nothing owed, nothing counted. */
  static genesis(terminal: string, genesisHash: string): Effects {
    return new Effects(terminal, 0, genesisHash, new Map(), new Map(), new Map());
  }

  static of(terminal: string, s: EffectsSnapshot): Effects {
    const bets = new Map<string, OpenBet[]>();
    for (const b of s.openBets) bets.set(b[0], [...(bets.get(b[0]) ?? []), b]);
    return new Effects(terminal, s.seq, s.hash, new Map(s.balances), new Map(s.meters.map(([sc, n, v]) => [meterKey(sc, n), v])), bets);
  }

  copy(): Effects {
    return new Effects(
      this.terminal,
      this.seq,
      this.hash,
      new Map(this.balances),
      new Map(this.meters),
      new Map([...this.bets].map(([k, v]) => [k, [...v]])),
      this.chars,
    );
  }

  snapshot(): EffectsSnapshot {
    return {
      seq: this.seq,
      hash: this.hash,
      balances: [...this.balances].filter(([, v]) => v !== 0).sort(byKey),
      meters: [...this.meters].filter(([, v]) => v !== 0).map(([k, v]) => [...splitMeter(k), v] as [string, string, number]),
      openBets: this.openBets(),
    };
  }

  /**
   * The next entry's body: it must be entry `seq + 1` of this terminal, and chain from `hash`.
   * Its postings must sum to zero (double entry). Throws EffectsError.
   */
  apply(text: string): void {
    const seq = this.seq + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EffectsError('bad-entry', `the body of entry ${seq} is not JSON`);
    }
    const r = Body.safeParse(parsed);
    if (!r.success) throw new EffectsError('bad-entry', `the body of entry ${seq} is not an entry's body: ${r.error.issues[0]?.path.join('.') ?? ''}`);
    const b = r.data;
    if (b.seq !== seq || b.terminal !== this.terminal) throw new EffectsError('bad-chain', `a body of ${b.terminal} entry ${b.seq} where entry ${seq} follows`);
    // Summed exactly: in floats, [2^53 − 1, 2, −(2^53 − 1), −1] summed to 0 (a review of 4 December).
    let sum = 0n;
    for (const [, amount] of b.postings) sum += BigInt(amount);
    if (sum !== 0n) throw new EffectsError('bad-entry', `the postings of entry ${seq} sum to ${sum}, not 0`);
    for (const [account, amount] of b.postings) {
      const was = this.balances.get(account);
      if (was === undefined) this.chars += account.length + PER_KEY;
      this.balances.set(account, safeSum(was ?? 0, amount, `balance of ${account}`, seq));
    }
    for (const [scope, name, delta] of b.meters) {
      const key = meterKey(scope, name);
      const was = this.meters.get(key);
      if (was === undefined) this.chars += key.length + PER_KEY;
      this.meters.set(key, safeSum(was ?? 0, delta, `meter ${scope} ${name}`, seq));
    }
    this.fold(b, seq);
    if (this.chars > MAX_EFFECTS_CHARS) {
      throw new EffectsError(
        'bad-entry',
        `entry ${seq} makes the effects of ${this.terminal} larger than ${MAX_EFFECTS_CHARS / 1024 / 1024} MiB, more than a checkpoint's state can carry: refused`,
      );
    }
    this.seq = seq;
    this.hash = chainHash(this.hash, digest('sha256', text, 'hex'));
  }

  /** A bet opens a line of its round; a settlement or a void closes the round (ledger/derive.ts, the projection). */
  private fold(b: z.infer<typeof Body>, seq: number): void {
    const roundId = b.payload.roundId;
    if (typeof roundId !== 'string') return;
    if (b.type === 'round.settle' || b.type === 'round.void') {
      for (const bet of this.bets.get(roundId) ?? []) this.chars -= betChars(bet);
      this.bets.delete(roundId);
      return;
    }
    if (b.type !== 'bet.place') return;
    const station = b.payload.station;
    if (typeof station !== 'number') throw new EffectsError('bad-entry', `bet ${seq} names no station`);
    // The stake is what the bet moved into the station's wagers; the credit before, what its credits say.
    const amount = -b.postings.filter(([a]) => a === `wagers:${station}`).reduce((s, [, v]) => s + v, 0);
    const before = b.credits?.find(([s]) => s === station)?.[1];
    if (before === undefined) throw new EffectsError('bad-entry', `bet ${seq} states no credit before it`);
    const bet: OpenBet = [roundId, station, seq, amount, before];
    this.chars += betChars(bet);
    this.bets.set(roundId, [...(this.bets.get(roundId) ?? []), bet]);
  }

  private openBets(): OpenBet[] {
    return [...this.bets.values()].flat().sort((a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  }

  /**
   * Whether `text`, a checkpoint's state, states these effects at this entry: its balances,
   * meters (those not zero) and open bets, exactly. Throws EffectsError naming the first difference.
   */
  check(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EffectsError('not-derived', 'the state is not JSON');
    }
    const r = State.safeParse(parsed);
    if (!r.success) throw new EffectsError('not-derived', `not a checkpoint's state: ${r.error.issues[0]?.path.join('.') ?? ''}`);
    const s = r.data;
    if (s.terminal !== this.terminal || s.seq !== this.seq || s.hash !== this.hash) {
      throw new EffectsError('not-derived', `the state is of ${s.terminal} entry ${s.seq}, not of entry ${this.seq}`);
    }
    const mine = this.snapshot();
    // Each key once, zeros included: the zeros were dropped first, so an account named twice, once as
    // 0, passed, and the host's seed (the last wins) read it as 0 (a review of 4 December).
    onceEach(
      'balance of',
      s.balances.map(([k]) => k),
    );
    onceEach(
      'meter',
      s.meters.map(([sc, n]) => meterKey(sc, n)),
    );
    differs(
      'balance of',
      s.balances.filter(([, v]) => v !== 0).map(([k, v]) => [k, v]),
      mine.balances.map(([k, v]) => [k, v]),
    );
    // Keyed by both parts as a list: joined with a space, ("x y", "z") and ("x", "y z") were one meter.
    differs(
      'meter',
      s.meters.filter(([, , v]) => v !== 0).map(([sc, n, v]) => [meterKey(sc, n), v]),
      mine.meters.map(([sc, n, v]) => [meterKey(sc, n), v]),
    );
    differs(
      'open bet',
      s.openBets.map((b) => [`${b[0]} station ${b[1]} entry ${b[2]}`, `${b[3]} (credit before ${b[4]})`]),
      mine.openBets.map((b) => [`${b[0]} station ${b[1]} entry ${b[2]}`, `${b[3]} (credit before ${b[4]})`]),
    );
  }
}

/** Throws naming the first key whose value the state and the entries disagree on. */
function differs(what: string, stated: [string, unknown][], derived: [string, unknown][]): void {
  const mine = new Map(derived);
  const theirs = new Map(stated);
  if (theirs.size !== stated.length) throw new EffectsError('not-derived', `the state names a ${what} twice`);
  for (const [k, v] of theirs) {
    if (mine.get(k) !== v) throw new EffectsError('not-derived', `${what} ${k}: the state says ${String(v)}, the entries make ${String(mine.get(k) ?? 0)}`);
  }
  for (const [k, v] of mine) if (!theirs.has(k)) throw new EffectsError('not-derived', `${what} ${k}: the state leaves out ${String(v)}`);
}

function byKey(a: [string, number], b: [string, number]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** A meter's scope and name as one key that no other pair makes (a scope may hold a newline or a space). */
function meterKey(scope: string, name: string): string {
  return JSON.stringify([scope, name]);
}

function splitMeter(k: string): [string, string] {
  const [scope, name] = JSON.parse(k) as [string, string];
  return [scope, name];
}

/** Throws when the state names a key more than once (zero or not). */
function onceEach(what: string, keys: string[]): void {
  if (new Set(keys).size !== keys.length) throw new EffectsError('not-derived', `the state names a ${what} twice`);
}

/** A balance or meter moved by `delta`, refused once it is no longer a safe integer (the ledger's are). */
function safeSum(value: number, delta: number, what: string, seq: number): number {
  const next = value + delta;
  if (!Number.isSafeInteger(next)) throw new EffectsError('bad-entry', `entry ${seq} takes the ${what} past a safe integer`);
  return next;
}

/** An open bet's size, as MAX_EFFECTS_CHARS counts it: its round's id and its four numbers. */
function betChars(bet: OpenBet): number {
  return bet[0].length + 4 * PER_KEY;
}

function sizeOf(balances: Map<string, number>, meters: Map<string, number>, bets: Map<string, OpenBet[]>): number {
  let n = 0;
  for (const k of balances.keys()) n += k.length + PER_KEY;
  for (const k of meters.keys()) n += k.length + PER_KEY;
  for (const list of bets.values()) for (const b of list) n += betChars(b);
  return n;
}
