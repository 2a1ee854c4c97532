// The table is one state machine whose log is the journal: random sequences of every kind of
// input a table takes (chips from seated and remote stations, countdowns, cards in and out of
// turn, unreadable and wrong-deck cards, decisions right and wrong, dealing errors and their
// corrections (right, wrong and forbidden ones), voids with and without a reason no correction
// could fix, manual entries, faults and disabled stations, configuration changes, jackpot resets,
// writes the ledger refuses, notes, new shoes) are fed to the live runtime over a real ledger.
// After every input the money must be conserved and the table's credits must be the ledger's; at
// the end, `step` folded over the journal must give back the live state exactly.
//
// Every kind of `TableInput` (read from its schema) must reach the fold in some run of each game,
// but those a game never takes (`OUT_OF_REACH`, each with why). The acts that need a moment of
// the round (a decision, a correction, a card entered by hand, bets taken back, a reset between
// rounds) play the table on to it first, so they seldom come to nothing.
//
// A test of the test: for each kind of input, a fold planted with a bug that drops or misreads
// that kind (a parameter of `play`, never a change to the production code) must be caught, so a
// kind the generator stops reaching, or a check that stops looking, fails here, not silently.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { cardCode, cardOf, parseCard, RANKS, SUITS, type CardCode } from '../../engine/cards/card.js';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../engine/blackjack/jackpot/program.js';
import { foldJournal, type JournalItem } from '../../engine/table/fold.js';
import { journalledInput, TableInput, type InputKind, type InputOf } from '../../engine/table/inputs.js';
import { correctionsFor, deciderStations, pendingOf } from '../../engine/table/queries.js';
import type { TableParams } from '../../engine/table/state.js';
import { withTableGame } from '../../engine/games.js';
import { CORRECTIONS, UNCORRECTABLE, type DecisionAction } from '../../engine/table/vocabulary.js';
import { jackpotPools, latestCheckpoint, Ledger, tableJournal, verifyLedger } from '../../ledger/index.js';
import type { GameKind, Spot } from '../../protocol/index.js';
import { manualTimers } from '../testing/manual-timers.js';
import { applyFaults, type FaultsAct } from '../testing/faults-act.js';
import { notPlainData } from '../testing/plain-data.js';
import { openTable } from './start-table.js';

const PROFILE: Record<GameKind, string> = { blackjack: 'portugal-2001', baccarat: 'macau-no-commission', war: 'macau' };
/**
 * The no-commission alternative is the regulator's choice (Art. 19): it needs its reference.
 * Blackjack plays Portugal's progressive (rules 38–50), so jackpot chips and resets are reached.
 */
const OPTIONS: Record<GameKind, Record<string, unknown>> = {
  blackjack: { jackpot: true, jackpotCards: 3, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM, authorisation: 'IGJ-TEST-1' },
  baccarat: { authorisation: 'DICJ-TEST-1' },
  war: {},
};
const CARDS: CardCode[] = RANKS.flatMap((r) => SUITS.map((s) => `${r}${s}` as const));
const NOTES = [10_000, 50_000, 100_000];
/** Seated stations 1–4 and two remote stations (a stadium: 101, 102). */
const STATIONS = [1, 2, 3, 4, 101, 102];
/** Rule 47: the jackpot chip is the program's amount, its only limit (as host/config/table-params.ts sets it). */
const JACKPOT_LIMIT = { jackpot: { min: EXAMPLE_JACKPOT_PROGRAM.stake, max: EXAMPLE_JACKPOT_PROGRAM.stake } };
/** Configurations a `configure` may switch to (limits, timings, a round maximum). */
const CONFIGS: ReadonlyArray<Partial<TableParams>> = [
  { limits: { min: 1_000, max: 100_000 } },
  { limits: { min: 2_000, max: 50_000 }, timings: { bettingMs: 2_000, decisionMs: 500, resultsMs: 0 } },
  { limits: { min: 1_000, max: 100_000 }, roundMax: 30_000 },
  { limits: { min: 5_000, max: 5_000 }, betLimits: { ...JACKPOT_LIMIT, behind: { min: 1_000, max: 2_000 } } },
];
const JACKPOT_LEVELS = ['main', 'minor', 'grand'];
/** Every kind of input a table takes, read from its schema: a kind added there is one the property must reach. */
const INPUT_KINDS: readonly InputKind[] = TableInput.options.map((o) => o.shape.kind.value);
/**
 * The kinds a game's table never takes, so that no sequence feeds them to its fold there, each
 * with why. Every other kind must reach the fold in some run of each game (asserted), and a kind
 * listed here that a run does reach is no longer out of reach: it fails until taken off.
 */
/**
 * A kind no game's sequences reach yet, with where it is tested instead: a gap of this property, not
 * of the table. `jackpot-paid` (Portugal rule 49) needs a jackpot award paid by hand, which these
 * sequences never make; host/table/jackpot-rule49.test.ts holds its round, its payment and its
 * restart. It has no planted bug below until a sequence reaches it.
 */
const NOT_YET_REACHED = 'no sequence here awards a jackpot paid by hand; rule 49 is tested in host/table/jackpot-rule49.test.ts';
const OUT_OF_REACH: Record<GameKind, Partial<Record<InputKind, string>>> = {
  blackjack: { 'jackpot-paid': NOT_YET_REACHED },
  baccarat: {
    decide: 'nobody decides in a coup of baccarat: its third cards follow the drawing rules',
    'jackpot-reset': 'baccarat plays no progressive jackpot (Portugal blackjack plays the only one here)',
    'jackpot-paid': 'baccarat plays no progressive jackpot (Portugal blackjack plays the only one here)',
  },
  war: {
    'jackpot-reset': 'war plays no progressive jackpot (Portugal blackjack plays the only one here)',
    'jackpot-paid': 'war plays no progressive jackpot (Portugal blackjack plays the only one here)',
  },
};

/** What happens next, drawn by fast-check; interpreted against the table as it stands then. */
type Act =
  /** Whatever the table asks for next, as an attentive dealer and players would do it. */
  | { kind: 'auto'; pick: number }
  | { kind: 'bet'; station: number; spot: number; chips: number }
  | { kind: 'clear'; station: number }
  | { kind: 'tick' }
  | { kind: 'deal'; pick: number }
  | { kind: 'stray-card'; card: number }
  | { kind: 'unreadable' }
  | { kind: 'decide'; pick: number; wrong: boolean }
  | { kind: 'void' }
  | { kind: 'enter'; card: number }
  | { kind: 'note'; station: number; note: number }
  | { kind: 'halt'; on: boolean }
  | { kind: 'new-shoe' }
  | { kind: 'cut' }
  | { kind: 'wrong-deck'; card: number }
  | FaultsAct
  | { kind: 'configure'; config: number }
  | { kind: 'dealing-error' }
  /** A correction: one the hold's text lists (`listed`), or any correction at all (often a wrong one). */
  | { kind: 'correct'; pick: number; listed: boolean }
  | { kind: 'void-uncorrectable'; why: number }
  | { kind: 'jackpot-reset'; level: number; to: number }
  /** The ledger refuses the next write: the table must hold, journalled, with nothing of it done. */
  | { kind: 'refuse-write' };

const act: fc.Arbitrary<Act> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('auto' as const), pick: fc.nat(1000) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('bet' as const),
      station: fc.integer({ min: 1, max: 4 }),
      spot: fc.nat(8),
      chips: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('clear' as const), station: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 6, arbitrary: fc.constant({ kind: 'tick' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('deal' as const), pick: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stray-card' as const), card: fc.nat(51) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unreadable' as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('decide' as const), pick: fc.nat(20), wrong: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'void' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('enter' as const), card: fc.nat(51) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('note' as const), station: fc.integer({ min: 1, max: 4 }), note: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('halt' as const), on: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'new-shoe' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'cut' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrong-deck' as const), card: fc.nat(51) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('faults' as const),
      halted: fc.boolean(),
      stopped: fc.boolean(),
      jackpot: fc.boolean(),
      disabled: fc.subarray(STATIONS),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('configure' as const), config: fc.nat(CONFIGS.length - 1) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'dealing-error' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('correct' as const), pick: fc.nat(20), listed: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void-uncorrectable' as const), why: fc.nat(UNCORRECTABLE.length - 1) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('jackpot-reset' as const),
      level: fc.nat(JACKPOT_LEVELS.length - 1),
      to: fc.constantFrom(500_000, 1_000_000, 1_500_000, 3_000_000),
    }),
  },
  { weight: 4, arbitrary: fc.constant({ kind: 'refuse-write' as const }) },
);

const params: TableParams = {
  tableId: 'PROP-1',
  stations: [1, 2, 3, 4].map((n) => ({ station: n, seat: n })),
  remote: 2,
  limits: { min: 1_000, max: 100_000 },
  betLimits: JACKPOT_LIMIT,
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

/**
 * A bug planted in what checks the table (a test of the test): `fold` rewrites the journal the
 * fold reads back, as a fold that drops or misreads an input kind would.
 */
export interface Plant {
  readonly fold?: (items: readonly JournalItem[]) => readonly JournalItem[];
}

/**
 * A difference found by the recovery checks (the fold against the live table), told apart from
 * any other failure so a planted bug in the fold counts as caught only when the fold check caught it.
 */
class FoldMismatch extends Error {}

/** Every station's credit on the ledger's meters, and what the progressive's pools hold. */
function held(ledger: Ledger): number {
  const meters = STATIONS.reduce((sum, st) => sum + ledger.credit(st), 0);
  return meters + jackpotPools(ledger).reduce((sum, p) => sum + p.pool, 0);
}

/** Plays `acts` on a fresh table of `game`, checking after each; returns the number of rounds closed. */
function play(game: GameKind, acts: readonly Act[], plant: Plant = {}): number {
  // Checkpoints every few entries: the runtime's state goes into them as the table plays.
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'PROP-1', checkpointEvery: 9 });
  try {
    return withTableGame(game, PROFILE[game], OPTIONS[game], (def) => {
      const clock = manualTimers();
      const opened = openTable(def, { ledger, log: pino({ level: 'silent' }), timers: clock.timers, params });
      opened.resume({ newShoe: false, params });
      const table = opened.table;
      let notesIn = 0;
      let shoe = 0;
      let seq = 0;
      let closed = 0;
      const note = (station: number, amount: number) => {
        notesIn += amount;
        ledger.append({
          type: 'bill.credit',
          payload: { station, device: `BA-${station}`, denomination: amount, currency: 'MOP' },
          txId: `note-${station}-${notesIn}-${seq++}`,
        });
      };
      for (const st of STATIONS) note(st, 100_000);
      // Money in play is the notes taken: on the meters, in the pools, in open rounds, less what
      // the house won (its balance). The pools' seed is the house's, so it is measured from here.
      const base = held(ledger) - ledger.balance('house') - notesIn;
      /**
       * The next card: one in three (or, `alike`, every one) of a rank the round has out already,
       * in the next suit: war's ties, blackjack's pairs and splits, baccarat's pairs.
       */
      /** Whether the last card dealt was one the procedure deals face down (blackjack's hole card). */
      let faceDown = false;
      const deal = (pick: number, alike = pick % 3 === 0) => {
        const cue = table.reads.cue();
        faceDown = cue?.kind === 'card' && cue.faceDown === true;
        const out = table.state.cards.filter((c) => c.to !== 'burn' && c.to !== 'discard');
        const seen = alike ? out[pick % Math.max(1, out.length)]?.card : undefined;
        const like = seen ? CARDS.indexOf(seen) : -1;
        const card = like >= 0 ? CARDS[like - (like % SUITS.length) + (((like % SUITS.length) + 1) % SUITS.length)] : CARDS[(pick + shoe * 7) % CARDS.length];
        shoe++;
        table.shoe.onCard(parseCard(card ?? 'AS'), ++seq);
      };
      const decider = (pick: number): { station: number; legal: readonly DecisionAction[]; default: DecisionAction } | null => {
        const p = pendingOf(table.state, def);
        if (!p || p.kind !== 'decision') return null;
        const stations = deciderStations(table.state, p);
        const station = stations[pick % Math.max(1, stations.length)];
        return station === undefined ? null : { station, legal: p.legal, default: p.default };
      };
      /** The table plays against the ledger's credits, and no minor unit is made or lost: checked after each act and step. */
      const check = (after: string) => {
        for (const st of STATIONS) assert.equal(table.state.credits[st] ?? 0, ledger.credit(st), `station ${st}'s credit after ${after}`);
        const inPlay = table.state.placed.reduce((sum, p) => sum + p.amount, 0);
        const open = ledger.rounds
          .open()
          .flatMap((r) => r.stations)
          .reduce((sum, x) => sum + x.amount, 0);
        if (table.state.phase === 'dealing') assert.equal(inPlay, open, `what the table has in play is what the ledger has open, after ${after}`);
        else assert.equal(open, 0, `no round open in the ledger outside a round, after ${after}`);
        assert.equal(held(ledger) + open - ledger.balance('house') - base, notesIn, `money conserved after ${after}`);
        // A checkpoint holds the state as JSON: plain data only, or a restart folds from a state that lost part of itself.
        assert.equal(notPlainData(table.state), null, `the table's state is plain data after ${after}`);
      };
      /** Whatever the table asks for next, as an attentive dealer and players would do it. */
      const auto = (pick: number, alike?: boolean) => {
        const cue = table.reads.cue();
        const d = decider(pick);
        if (cue?.kind === 'shuffle') table.shoe.onNewShoe(++seq);
        else if (cue?.kind === 'card') deal(pick, alike);
        else if (d) table.commands.decide(d.station, d.legal[pick % d.legal.length] ?? d.default);
        else if (table.state.hold) {
          // As a supervisor and a witness would: the card entered by hand where the shoe could
          // not read it, the hold's own correction where its text has one, else the last resort.
          const hold = table.state.hold;
          const rules = correctionsFor(table.state, def).filter((c) => 'rule' in c);
          const rule = rules[pick % Math.max(1, rules.length)];
          const entered =
            hold.reason === 'unreadable' && hold.reads.length === 0 && pick % 3 !== 2
              ? table.input({
                  kind: 'enter-card',
                  at: clock.now(),
                  card: cardOf(CARDS[pick % CARDS.length] ?? 'AS'),
                  supervisor: 'sup-1',
                  witness: 'wit-2',
                }).ok
              : false;
          const corrected = !entered && rule && pick % 3 !== 2 ? table.supervisor.correct(rule.correction, 'sup-1', 'wit-2').ok : entered;
          if (!corrected) table.supervisor.voidRound('property test: resolved', ['sup-1', 'wit-2']);
        } else if (table.state.phase === 'betting' && table.state.chips.length === 0) {
          const station = STATIONS[pick % STATIONS.length] ?? 1;
          table.commands.placeBet(station, { bet: def.rules.bets[pick % def.rules.bets.length] ?? 'main' }, 1_000 * (1 + (pick % 10)));
        } else if (table.reads.view().endsAt !== null) clock.runOut(table.reads.view().endsAt);
      };
      /**
       * The table played on (what it asks for next, each step checked) until `done`, at most `steps`
       * times: a macro act's way to the moment its input is meant for.
       */
      const playOn = (what: string, pick: number, done: () => boolean, steps: number, alike?: boolean) => {
        for (let i = 0; i < steps && !done(); i++) {
          auto(pick + i, alike);
          check(`${what} (played on)`);
        }
      };
      for (const a of acts) {
        switch (a.kind) {
          case 'auto':
            auto(a.pick);
            break;
          case 'bet': {
            const spots: Spot[] = [...def.rules.bets.map((bet): Spot => ({ bet })), { bet: 'behind', seat: 1 + (a.spot % 4) }];
            const spot = spots[a.spot % spots.length];
            const station = STATIONS[(a.station + a.spot) % STATIONS.length] ?? a.station;
            // The jackpot chip is the program's amount (rule 47); any other is refused.
            if (spot) table.commands.placeBet(station, spot, spot.bet === 'jackpot' ? EXAMPLE_JACKPOT_PROGRAM.stake : a.chips * 1_000);
            break;
          }
          case 'clear': {
            // The table played on to its betting, and a station that has chips takes them back (one
            // places some first where none has: clearing nothing journals nothing).
            playOn('clear', a.station, () => table.state.phase === 'betting' && table.state.hold === null, 10);
            if (table.state.phase === 'betting' && table.state.chips.length === 0) {
              table.commands.placeBet(a.station, { bet: def.rules.bets[0] ?? 'main' }, 1_000);
              check('clear (a bet placed first)');
            }
            const withChips = [...new Set(table.state.chips.map((c) => c.station))];
            table.commands.clearBets(withChips[a.station % Math.max(1, withChips.length)] ?? a.station);
            break;
          }
          case 'tick':
            if (table.reads.view().endsAt !== null) clock.runOut(table.reads.view().endsAt);
            break;
          case 'deal':
            if (table.reads.cue()?.kind === 'card') deal(a.pick);
            break;
          case 'stray-card': {
            const card = cardOf(CARDS[a.card] ?? 'AS');
            table.input({ kind: 'card', at: clock.now(), card, sequence: ++seq });
            break;
          }
          case 'unreadable':
            table.shoe.onAnomaly('unreadable', null, ++seq);
            break;
          case 'wrong-deck':
            table.shoe.onAnomaly('wrong-deck', CARDS[a.card] ?? 'AS', ++seq);
            break;
          case 'decide': {
            // The table played on until a seat is asked (its cards of ranks the round has out: war's
            // ties, blackjack's pairs), then the seat's decision, a legal one or a wrong one.
            playOn('decide', a.pick, () => decider(a.pick) !== null || table.state.hold !== null, 14, true);
            const d = decider(a.pick);
            if (!d) break;
            table.commands.decide(d.station, a.wrong ? 'war' : (d.legal[a.pick % d.legal.length] ?? d.default));
            break;
          }
          case 'void':
            table.supervisor.voidRound('property test', ['sup-1', 'wit-2']);
            break;
          case 'void-uncorrectable':
            table.supervisor.voidRound('property test: no correction', ['sup-1', 'wit-2'], UNCORRECTABLE[a.why]);
            break;
          case 'enter':
            // The table played on to a card, which the shoe cannot read: two people enter it by hand.
            playOn('enter', a.card, () => table.state.hold !== null || (table.state.phase === 'dealing' && table.reads.cue()?.kind === 'card'), 6);
            if (!table.state.hold && table.reads.cue()?.kind === 'card') {
              table.shoe.onAnomaly('unreadable', null, ++seq);
              check('enter (the card unreadable)');
            }
            table.input({ kind: 'enter-card', at: clock.now(), card: cardOf(CARDS[a.card] ?? 'AS'), supervisor: 'sup-1', witness: 'wit-2' });
            break;
          case 'note':
            note(STATIONS[a.station + a.note] ?? a.station, NOTES[a.note] ?? 10_000);
            break;
          case 'halt':
            table.setFaults({ halted: a.on ? 'shoe-alarm' : null, newBetsStopped: a.on ? 'shoe-alarm' : null, disabled: [] });
            break;
          case 'faults':
            applyFaults(table, a);
            break;
          case 'new-shoe':
            table.shoe.onNewShoe(++seq);
            break;
          case 'cut':
            table.shoe.onCutCard(++seq);
            break;
          case 'configure':
            table.configure({ ...params, ...CONFIGS[a.config] });
            break;
          case 'dealing-error':
            table.supervisor.reportDealingError('sup-1');
            break;
          case 'correct': {
            // The table played on to a round with a card out (half the time to a card dealt face down,
            // the one an exposed-card correction is for), which a supervisor stops for a dealing
            // error; two people correct it (as the hold's text lists, or any correction at all).
            const dealt = () => table.state.phase === 'dealing' && table.state.cards.some((c) => c.to !== 'burn' && c.to !== 'discard');
            playOn('correct', a.pick, () => table.state.hold !== null || (dealt() && (faceDown || a.pick % 2 === 0)), 10);
            if (!table.state.hold && dealt()) {
              table.supervisor.reportDealingError('sup-1');
              check('correct (a dealing error reported)');
            }
            const listed = correctionsFor(table.state, def);
            const right = listed.filter((c) => 'rule' in c)[a.pick % Math.max(1, listed.length)]?.correction;
            const correction = a.listed ? listed[a.pick % Math.max(1, listed.length)]?.correction : CORRECTIONS[a.pick % CORRECTIONS.length];
            // One the text does not order is refused, and the table still holds: the right one then.
            if (correction && !table.supervisor.correct(correction, 'sup-1', 'wit-2').ok && right) {
              check('correct (refused)');
              table.supervisor.correct(right, 'sup-1', 'wit-2');
            }
            break;
          }
          case 'jackpot-reset':
            // Between rounds (the table played on to them): a level the program has or not, at a figure it allows or not.
            playOn('jackpot-reset', a.to, () => table.state.phase !== 'dealing' && table.state.hold === null, 10);
            // No time passes: two equal resets of one level may fall in one millisecond. Each has a
            // transaction id of its own (engine/table/step.ts); when they shared one, the ledger kept
            // the second as a duplicate while its input said it wrote one, and the fold stopped there
            // (found by this test; seed 1, 200 runs).
            table.input({
              kind: 'jackpot-reset',
              at: clock.now(),
              level: JACKPOT_LEVELS[a.level] ?? 'main',
              to: a.to,
              supervisor: 'sup-1',
              witness: 'wit-2',
              authorisation: 'IGJ-TEST-1',
            });
            break;
          case 'refuse-write': {
            // The next write the table asks for is refused once (a full disk, a locked file).
            const appendMany = ledger.appendMany.bind(ledger);
            ledger.appendMany = (entries) => {
              ledger.appendMany = appendMany;
              throw new Error(`property test: the ledger refuses ${entries.length} entr(ies)`);
            };
            // Something the table writes: the first chip of a station, or the hold's last resort.
            if (table.state.phase === 'betting') table.commands.placeBet(1, { bet: def.rules.bets[0] ?? 'main' }, 1_000);
            else table.supervisor.voidRound('property test: refused write', ['sup-1', 'wit-2']);
            ledger.appendMany = appendMany;
            break;
          }
        }
        if (table.state.phase === 'results' && table.state.results) closed++;
        check(a.kind);
      }
      // Recovery: the fold of the journal is the live table, exactly.
      try {
        recovered();
      } catch (e) {
        throw new FoldMismatch(e instanceof Error ? e.message : String(e), { cause: e });
      }
      table.stop();
      return closed;
      function recovered() {
        const journal = (from?: number) => {
          const items = [...tableJournal(ledger, from)];
          return plant.fold ? plant.fold(items) : items;
        };
        const folded = foldJournal(journal(), def, params);
        assert.deepEqual(folded.problems, []);
        assert.equal(folded.opened, true);
        assert.deepStrictEqual(JSON.parse(JSON.stringify(folded.state)), JSON.parse(JSON.stringify(table.state)));
        // A restart folds from the newest checkpoint holding the table's state: the same table.
        const c = latestCheckpoint(ledger, { withTable: true });
        assert.equal(c.status, 'ok', 'the runtime wrote checkpoints with its state');
        if (c.status === 'ok' && c.checkpoint.state.table) {
          assert.equal(c.checkpoint.state.table.identity, def.identity);
          const from = { state: c.checkpoint.state.table.state as typeof folded.state, opened: true };
          const resumed = foldJournal(journal(c.checkpoint.seq + 1), def, params, from);
          assert.deepEqual(resumed.problems, []);
          assert.deepStrictEqual(JSON.parse(JSON.stringify(resumed.state)), JSON.parse(JSON.stringify(table.state)));
        }
        assert.equal(verifyLedger(ledger, { from: 'checkpoint' }).ok, true, 'verified from the newest checkpoint');
      }
    });
  } finally {
    ledger.close();
  }
}

/**
 * A fresh seed each run, printed, so every run explores new sequences and a failure is replayed
 * with `FC_SEED=<seed>` (fast-check prints the path to the shrunk case beside it). `FC_RUNS` sets
 * the number of sequences per game: a few seconds' worth in the suite, a campaign by hand.
 */
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 0x7fffffff);
const RUNS = process.env.FC_RUNS ? Number(process.env.FC_RUNS) : 25;
const sequences = fc.array(act, { minLength: 20, maxLength: 240 });

describe('the table as a state machine over its journal (property)', () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: any sequence of inputs conserves money at every step, and the fold of the journal is the live table`, () => {
      console.log(`fold property (${game}): seed ${SEED}, ${RUNS} runs (replay: FC_SEED=${SEED}; more: FC_RUNS=<n>)`);
      let rounds = 0;
      /** In how many runs the fold was fed each input kind. */
      const runsWith = new Map<string, number>();
      fc.assert(
        fc.property(sequences, (acts) => {
          const kinds = new Set<string>();
          rounds += play(game, acts, { fold: (items) => (kindsIn(items).forEach((k) => kinds.add(k)), items) });
          for (const k of kinds) runsWith.set(k, (runsWith.get(k) ?? 0) + 1);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      assert.ok(rounds > 0, 'the random sequences closed rounds (the property saw settlements, not only betting)');
      console.log(
        `fold property (${game}): runs that fed the fold each input kind: ${INPUT_KINDS.map((k) => `${k} ${runsWith.get(k) ?? 0}/${RUNS}`).join(', ')}`,
      );
      // Every kind of input reached the fold, in some run, but those the game never takes. The
      // rarest reach it in about two runs in five (measured over 3 × 200 runs of each game), so
      // 25 runs miss one of them in about one suite in 100,000; fewer runs (a quick replay) are
      // not held to it.
      const out = OUT_OF_REACH[game];
      assert.deepEqual(
        [...runsWith.keys()].filter((k) => !INPUT_KINDS.some((i) => i === k)),
        [],
        'only input kinds of TableInput were journalled',
      );
      assert.deepEqual(
        INPUT_KINDS.filter((k) => runsWith.has(k) && k in out),
        [],
        `kinds OUT_OF_REACH says ${game} never takes reached its fold: take them off the list`,
      );
      if (RUNS >= 25)
        assert.deepEqual(
          INPUT_KINDS.filter((k) => !runsWith.has(k) && !(k in out)),
          [],
          `input kinds no run of ${game} fed the fold (seed ${SEED}): the generator no longer reaches them`,
        );
    });
  }
});

/**
 * The input kinds a journal feeds its fold: each journalled input's, and `credit` for an entry the
 * table did not write that moved a station's credit (a note taken), which the fold steps as a
 * `credit` input (engine/table/fold.ts).
 */
function kindsIn(items: readonly JournalItem[]): Set<string> {
  const kinds = new Set<string>();
  let effects = 0;
  for (const item of items) {
    if (item.kind === 'input') {
      kinds.add(kindOf(item));
      effects = item.effects;
    } else if (effects > 0) effects--;
    else if (item.credits.length > 0) kinds.add('credit');
  }
  return kinds;
}

/** The kind of a journalled table input (`?` for one that is not an object with a kind). */
function kindOf(item: Extract<JournalItem, { kind: 'input' }>): string {
  const input = item.input;
  return input !== null && typeof input === 'object' && 'kind' in input && typeof input.kind === 'string' ? input.kind : '?';
}

/** A fold that never sees inputs of `kind` nor the entries they wrote: as if its step ignored them. */
function dropping(kind: TableInput['kind']): Plant {
  return {
    fold: (items) => {
      const out: JournalItem[] = [];
      let skip = 0;
      for (const item of items) {
        if (skip > 0 && item.kind === 'entry') {
          skip--;
          continue;
        }
        skip = 0;
        if (item.kind === 'input' && kindOf(item) === kind) skip = item.effects;
        else out.push(item);
      }
      return out;
    },
  };
}

function isKind<K extends InputKind>(input: TableInput, kind: K): input is InputOf<K> {
  return input.kind === kind;
}

/** A fold that reads every input of `kind` otherwise than it was journalled (and the rest as journalled). */
function misreading<K extends InputKind>(kind: K, misread: (input: InputOf<K>) => InputOf<K>): Plant {
  return {
    fold: (items) =>
      items.map((item) => {
        const parsed = item.kind === 'input' ? TableInput.safeParse(item.input) : null;
        if (item.kind !== 'input' || !parsed?.success || !isKind(parsed.data, kind)) return item;
        return { ...item, input: journalledInput(misread(parsed.data)) };
      }),
  };
}

/** A fold that reads every `correct` input as another correction than the one journalled. */
const misreadCorrections = misreading('correct', (input) => ({
  ...input,
  correction: CORRECTIONS[(CORRECTIONS.indexOf(input.correction) + 1) % CORRECTIONS.length] ?? input.correction,
}));

/** A fold that never credits the entries the table did not write (a note taken): as if it dropped their `credit` inputs. */
const ignoringCredits: Plant = {
  fold: (items) => {
    let effects = 0;
    return items.map((item) => {
      if (item.kind === 'input') effects = item.effects;
      else if (effects > 0) effects--;
      else return { ...item, credits: [] };
      return item;
    });
  },
};

/**
 * The test of the test: a fold planted with a bug in one kind of input must fail the property
 * (within the runs the suite gives it), and every kind has one. A kind the generator stops
 * reaching, or a check that stops looking, makes its case fail here. Each is caught by the fold of
 * the whole journal (its problems, or its state against the live table; the opening by `opened`)
 * and, but the resume that comes before any checkpoint, by the fold from the newest checkpoint too.
 */
describe('the property catches a planted bug in each family of inputs (a test of the test)', () => {
  /** Each with the one kind of input it misreads: the property catches it only through that kind. */
  const planted: [GameKind, InputKind, string, Plant][] = [
    ['blackjack', 'open', "a fold that ignores the table's opening", dropping('open')],
    ['baccarat', 'configure', 'a fold that ignores configuration changes', dropping('configure')],
    ['war', 'resume', 'a fold that ignores the host starting again', dropping('resume')],
    ['blackjack', 'place-bet', 'a fold that reads every bet as 1,000 more', misreading('place-bet', (i) => ({ ...i, amount: i.amount + 1_000 }))],
    ['war', 'clear-bets', 'a fold that ignores bets taken back', dropping('clear-bets')],
    [
      'blackjack',
      'decide',
      'a fold that reads a decision to stand as one to hit, and any other as one to stand',
      misreading('decide', (i) => ({ ...i, action: i.action === 'stand' ? 'hit' : 'stand' })),
    ],
    ['war', 'settle', 'a fold that ignores the settlement of a round', dropping('settle')],
    ['baccarat', 'timer', 'a fold that ignores countdowns running out', dropping('timer')],
    [
      'war',
      'card',
      'a fold that reads each card a rank higher',
      misreading('card', (i) => ({ ...i, card: cardOf(CARDS[(CARDS.indexOf(cardCode(i.card)) + SUITS.length) % CARDS.length] ?? 'AS') })),
    ],
    ['war', 'anomaly', 'a fold that ignores card anomalies', dropping('anomaly')],
    ['blackjack', 'cut-card', 'a fold that ignores the cut card', dropping('cut-card')],
    ['baccarat', 'shoe-loaded', 'a fold that ignores new shoes', dropping('shoe-loaded')],
    ['baccarat', 'void', 'a fold that ignores voids', dropping('void')],
    ['blackjack', 'dealing-error', 'a fold that ignores dealing errors reported by a supervisor', dropping('dealing-error')],
    ['war', 'correct', 'a fold that ignores corrections', dropping('correct')],
    ['baccarat', 'correct', 'a fold that reads each correction as another', misreadCorrections],
    ['blackjack', 'enter-card', 'a fold that ignores manual card entries', dropping('enter-card')],
    ['baccarat', 'faults', 'a fold that ignores faults', dropping('faults')],
    ['blackjack', 'jackpot-reset', 'a fold that ignores jackpot resets', dropping('jackpot-reset')],
    ['baccarat', 'credit', 'a fold that does not credit the notes taken', ignoringCredits],
    ['war', 'journal-refused', 'a fold that ignores the ledger refusing a write', dropping('journal-refused')],
  ];
  it('plants a bug in every kind of input a table takes', () => {
    assert.deepEqual(
      INPUT_KINDS.filter((k) => !planted.some(([, kind]) => kind === k) && OUT_OF_REACH.blackjack[k] !== NOT_YET_REACHED),
      [],
    );
  });
  for (const [game, , name, plant] of planted)
    it(`${game}: ${name} is caught`, () => {
      const r = fc.check(
        fc.property(sequences, (acts) => {
          play(game, acts, plant);
        }),
        // Stops at the first failure: a caught bug costs a few runs, a surviving one all of them.
        { numRuns: Math.max(RUNS, 200), seed: SEED, endOnFailure: true },
      );
      assert.equal(r.failed, true, `the planted bug survived ${r.numRuns} runs (seed ${SEED})`);
      assert.ok(r.errorInstance instanceof FoldMismatch, `caught by the fold check, not another failure: ${String(r.errorInstance)}`);
    });
});
