import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { foldJournal } from '../../engine/table/fold.js';
import type { GameDefinition } from '../../engine/table/game.js';
import type { TableParams, TableState } from '../../engine/table/state.js';
import { tableStateSchema } from '../../engine/table/state-schema.js';
import { initialTable } from '../../engine/table/step.js';
import { latestCheckpoint, programAt, roundProgress, tableJournal, verifyLedger, type Checkpoint, type Ledger } from '../../ledger/index.js';
import type { LiveTable } from './runtime.js';

/** Who authorises a void the recovery rules decide (every bet returned, nothing kept). */
export const RECOVERY_AUTHORITY = 'host-recovery';

/** What the start-up recovery found and did; `/healthz` shows it, a tilt can be raised from it. */
export interface RecoveryReport {
  ledgerVerified: boolean;
  /** Verification problems (empty when verified). */
  problems: string[];
  /** The interrupted round that goes on, if any. */
  resumedRound: string | null;
  /** The hold between rounds the table starts on again (its reason), if any. */
  tableHold: string | null;
  /** Rounds voided by the recovery rules (every bet returned), with why. */
  voided: { roundId: string; reason: string }[];
  /** Journalled table inputs the fold went through (the cost of a restart). */
  replayedEntries: number;
  /** Entries verified: those after the newest checkpoint, or the whole journal without one. */
  verifiedEntries: number;
  /** The checkpoint verification started from (0: genesis). */
  verifiedFrom: number;
  /** The checkpoint the table's fold started from (0: the first entry). */
  foldedFrom: number;
  /**
   * Why the newest checkpoint holding the table was not folded from, when its signed table state
   * does not parse as this build's (`engine/table/state-schema.ts`): the fold went from the first
   * entry instead, so nothing is lost. Null otherwise.
   */
  checkpointRefused: string | null;
  /** Why the fold stopped, when it did (the table then opened afresh and its open rounds were voided). */
  foldProblems: string[];
  /** Entries an earlier build wrote, worded otherwise, read by their facts and money (docs/ledger.md, "Upgrades"). */
  entriesByFacts: number;
  /** Commands an earlier build took that this one refuses, passed over because they journalled nothing. */
  inputsSkipped: number;
  verifyMs: number;
  replayMs: number;
  /** The checkpoint written at the head once the table was in play again, if one was. */
  checkpointed: number | null;
}

export interface Recovered<S, R> {
  report: RecoveryReport;
  /** The table as the journal leaves it; on a ledger that fails verification, a table held for it. */
  state: TableState<S, R>;
  /** Whether the fold found the table opened under this game and read everything since. */
  opened: boolean;
  /** Why the fold stopped, when it did (the table then opens afresh, and open rounds are voided). */
  foldProblems: readonly string[];
}

/**
 * Start-up recovery: verify the ledger from its newest checkpoint (the whole journal without one);
 * on failure touch nothing and hold the table (`ledger`). Otherwise the table is `step` folded
 * over the journal from the newest checkpoint holding the table's state under this game (from the
 * first entry without one): the state the kill interrupted, round, hold and chips included.
 * Credits need no rebuilding: they come with the journal's own entries. Once the table is in
 * play again (`openTable`'s `resume`) a checkpoint with its state is written at the head, so the
 * next start's cost follows only what is journalled after it.
 */
export function recoverTable<S, R>(deps: {
  ledger: Ledger;
  game: GameDefinition<S, R>;
  params: TableParams;
  log: Logger;
  /**
   * The program running (its hash, as its `power.reset` names it): entries another program wrote
   * are read by their facts, and a checkpoint's table state is taken only from this program's.
   * Absent: every entry compared byte for byte, any checkpoint taken.
   */
  program?: string;
}): Recovered<S, R> {
  const { ledger, game, params, log } = deps;
  const { verified, tableCk, verifyMs } = verifyForRecovery(ledger);
  const report: RecoveryReport = {
    ledgerVerified: verified.ok,
    problems: verified.problems,
    resumedRound: null,
    tableHold: null,
    voided: [],
    replayedEntries: 0,
    verifiedEntries: verified.entries,
    verifiedFrom: verified.fromSeq,
    foldedFrom: 0,
    checkpointRefused: null,
    foldProblems: [],
    entriesByFacts: 0,
    inputsSkipped: 0,
    verifyMs,
    replayMs: 0,
    checkpointed: null,
  };
  if (!verified.ok) {
    log.error({ problems: verified.problems.slice(0, 10) }, 'ledger verification failed: the table holds and takes no bets');
    const held = {
      ...initialTable(params, game),
      credits: ledger.stationCredits(),
      hold: { reason: 'ledger' as const, sequence: null, reads: [], roundId: null },
    };
    return { report, state: held, opened: false, foldProblems: [] };
  }
  const t1 = performance.now();
  const { folded, from, refused } = foldFromCheckpoint(deps, tableCk?.status === 'ok' ? tableCk.checkpoint : null);
  report.foldedFrom = from?.seq ?? 0;
  report.checkpointRefused = refused;
  report.replayMs = performance.now() - t1;
  report.replayedEntries = folded.inputs;
  report.foldProblems = [...folded.problems];
  report.entriesByFacts = folded.byFacts;
  report.inputsSkipped = folded.skippedInputs;
  if (folded.byFacts > 0 || folded.skippedInputs > 0)
    log.warn(
      { byFacts: folded.byFacts, skipped: folded.skippedInputs },
      "entries of an earlier build read by their facts and money; commands it took that this build refuses passed over (docs/ledger.md, 'Upgrades')",
    );
  if (folded.problems.length > 0)
    log.error({ problems: folded.problems }, 'the journal does not fold through this version: the table opens afresh and open rounds are voided');
  // A fold that stopped early holds the credits as of where it stopped: the ledger's balances are
  // the stations' credits (entries after the stop moved them too).
  const s = folded.problems.length > 0 ? { ...folded.state, credits: ledger.stationCredits() } : folded.state;
  const inPlay = folded.problems.length === 0 && folded.opened && s.phase === 'dealing' && s.round !== null;
  report.resumedRound = inPlay ? s.roundId : null;
  report.tableHold = folded.problems.length === 0 && folded.opened && !inPlay && s.hold ? s.hold.reason : null;
  return { report, state: s, opened: folded.opened && folded.problems.length === 0, foldProblems: folded.problems };
}

/**
 * The ledger verified from its newest checkpoint, and the newest checkpoint holding the table's
 * state. That one may be older than the checkpoint verification started from: its signature is
 * checked too, and a tampered one fails the ledger like any other tampering.
 */
function verifyForRecovery(ledger: Ledger) {
  const t0 = performance.now();
  const verified = verifyLedger(ledger, { from: 'checkpoint' });
  const tableCk = verified.ok ? latestCheckpoint(ledger, { withTable: true }) : null;
  if (tableCk?.status === 'bad') {
    verified.ok = false;
    verified.problems.push(...tableCk.problems);
  }
  return { verified, tableCk, verifyMs: performance.now() - t0 };
}

/**
 * The journal folded from the table's checkpoint, or from the first entry. A checkpoint's table
 * state is the shape of the build that folded it: another build folds from the first entry
 * instead, once, reading the earlier build's entries by their facts.
 */
function foldFromCheckpoint<S, R>(
  deps: { ledger: Ledger; game: GameDefinition<S, R>; params: TableParams; log: Logger; program?: string },
  ck: Checkpoint | null,
) {
  const { ledger, game, params, log, program } = deps;
  const ckProgram = ck && program !== undefined ? programAt(ledger, ck.seq) : null;
  const read = ck && (program === undefined || ckProgram === program) ? tableState(ck, game) : null;
  const from = read?.ok ? read : null;
  const refused = read && !read.ok ? read.problem : null;
  if (refused)
    log.error({ checkpoint: ck?.seq, problem: refused }, "the table's checkpoint does not parse as this build's state: folding from the first entry");
  if (ck && !read && program !== undefined && ckProgram !== program)
    log.info({ checkpoint: ck.seq }, "the table's checkpoint was folded by another program: folding from the first entry");
  const folded = from
    ? foldJournal(tableJournal(ledger, from.seq + 1), game, params, { state: from.state, opened: true }, { program, writtenBy: program ?? null })
    : foldJournal(tableJournal(ledger), game, params, undefined, { program });
  return { folded, from, refused };
}

/**
 * The table's state a checkpoint holds, when it was folded under this game's identity; null
 * otherwise (another game: the fold starts from the first entry, as it must to open it afresh).
 * The table's part is parsed field by field, the game's own part (its shoe and its round) by the
 * game's schemas (`GameDefinition.schemas`, engine/<game>/state-schema.ts): a malformed card, a
 * negative stake, a missing field anywhere is refused with its path.
 */
function tableState<S, R>(
  c: Checkpoint,
  game: GameDefinition<S, R>,
): { ok: true; seq: number; state: TableState<S, R> } | { ok: false; problem: string } | null {
  const table = c.state.table;
  if (!table || table.identity !== game.identity) return null;
  const parsed = tableStateSchema(game.schemas.shoe, game.schemas.round).safeParse(table.state);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? first.path.join('.') : 'its state';
    return {
      ok: false,
      problem: `checkpoint ${c.seq}: the table's state is refused at ${where}: ${first?.message ?? 'malformed'} (${parsed.error.issues.length} problem(s))`,
    };
  }
  return { ok: true, seq: c.seq, state: parsed.data };
}

/**
 * Rounds the ledger has open that the table will not go on with (written before the table
 * journalled its inputs, under another game, or past a fold that stopped): each voided by the
 * recovery rules, every bet returned. Run with the table's runtime listening, so the returned
 * credits reach its state.
 */
export function voidStrayRounds(deps: { ledger: Ledger; table: LiveTable; log: Logger; report: RecoveryReport; reason: string }): void {
  const { ledger, table, log, report } = deps;
  const s = table.state;
  const keep = s.phase === 'dealing' && s.round !== null ? s.roundId : null;
  for (const { roundId } of ledger.rounds.open()) {
    if (roundId === keep) continue;
    const progress = roundProgress(ledger, roundId);
    ledger.append({
      type: 'round.void',
      payload: {
        roundId,
        tableId: s.params.tableId,
        game: table.game.kind,
        profile: table.game.profile,
        cards: progress.cards,
        decisions: progress.decisions,
        reason: deps.reason,
        authorisedBy: [RECOVERY_AUTHORITY],
      },
      txId: `${roundId}:void`,
    });
    report.voided.push({ roundId, reason: deps.reason });
    log.warn({ roundId, reason: deps.reason }, 'interrupted round voided at start: every bet returned');
  }
}
