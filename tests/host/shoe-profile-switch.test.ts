// A rule profile changed from the back office takes effect at the table's next shoe (issue 49 item
// 6): a baccarat table playing Macau's commission game is ordered, signed by the upstream, to play
// the no-commission alternative (Art. 18, under the DICJ's authorisation, Art. 19). Rounds before
// the shoe change are paid 19 to 20 on a banker's 6, rounds after it 1 to 2; the journal says what
// changed, from what to what, who approved it, the order and its signature; the rule record and
// each round's evidence name the rules the round was played under; a restart opens the same game.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { answeredOrders, evidenceBundle, PAYLOADS, ruleRecordAt, verifyEvidence, verifyLedger, type Ledger } from '../../ledger/index.js';
import { configRefusals, journalOf } from '../../host/testing/remote-orders.js';
import { BANKER_SIX_WINS, FROM, openShoeHost, profileOrder, TO } from './shoe-profile-kit.js';

function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'etg-shoe-profile-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The profile the round was settled under (its `round.settle`) and the record its evidence names. */
function playedUnder(ledger: Ledger, roundId: string): { settled: string; record: string | undefined; verified: boolean } {
  const bundle = evidenceBundle(ledger, roundId);
  assert.ok(bundle, roundId);
  const rules = bundle.rules ? (JSON.parse(bundle.rules.body) as { payload: { profile: string } }).payload.profile : undefined;
  return { settled: bundle.round.profile, record: rules, verified: verifyEvidence(bundle).ok };
}

describe('a rule profile from the back office, switched at the next shoe', () => {
  it('waits for the shoe, switches between shoes, journals the switch, and the rounds on each side cite their rules', () =>
    withDir(async (dir) => {
      const t = openShoeHost(dir);
      let credit: number;
      try {
        const r1 = t.round();
        const { answer, signed } = profileOrder(7);
        t.remote.receive(answer);
        assert.deepEqual(
          t.remote.pending().map((o) => o.id),
          [7],
        );
        // Rounds go on under the rules in force: the order waits for the shoe.
        const r2 = t.round();
        assert.equal(t.rt.table.game.profile, FROM);
        const head = t.ledger.headOf().seq;
        await t.newShoe();
        assert.equal(t.rt.table.game.profile, TO, 'the game is rebuilt under the new profile at the shoe change');
        assert.equal(t.config.profile, TO);

        // The switch in the journal: the shoe, then what changed, who approved it, the order and its signature, then its record in force.
        const after = journalOf(t.ledger).filter((e) => e.seq > head);
        const types = after.map((e) => e.type);
        assert.deepEqual(types.slice(0, 5), ['table.input', 'shoe.change', 'config.change', 'rules.record', 'table.input'], types.join(' '));
        const change = PAYLOADS['config.change'].parse(JSON.parse(after[2]?.body ?? '{}').payload);
        assert.deepEqual(
          [change.key, change.before, change.after, change.who, change.witness, change.order, change.signature, change.at],
          ['profile', FROM, TO, 'ana', 'rui', 7, signed.signature, 'shoe'],
        );
        const record = PAYLOADS['rules.record'].parse(JSON.parse(after[3]?.body ?? '{}').payload);
        assert.deepEqual(
          [record.profile, record.reference, record.cause, record.changeSeq, record.takesEffect],
          [TO, 'DICJ-2026/7', 'config.change', after[2]?.seq, undefined],
        );
        const open = JSON.parse(after[4]?.body ?? '{}') as { payload: { input: { kind: string; game: string } } };
        assert.equal(open.payload.input.kind, 'open');
        assert.match(open.payload.input.game, new RegExp(TO));
        assert.ok(answeredOrders(t.ledger).has(7));

        const r3 = t.round();
        credit = t.ledger.credit(1);
        assert.equal(credit, 100_000 + 2 * BANKER_SIX_WINS[FROM]! + BANKER_SIX_WINS[TO]!, 'paid as each round was played');
        // Each round's settlement and evidence name its rules: before the switch the old, after it the new.
        assert.deepEqual(playedUnder(t.ledger, r1), { settled: FROM, record: FROM, verified: true });
        assert.deepEqual(playedUnder(t.ledger, r2), { settled: FROM, record: FROM, verified: true });
        assert.deepEqual(playedUnder(t.ledger, r3), { settled: TO, record: TO, verified: true });
        assert.equal(ruleRecordAt(t.ledger)?.payload.profile, TO);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.stop();
      }

      // A start on the folder, the file still naming the old profile: the journal's switch wins, nothing to void.
      const again = openShoeHost(dir);
      try {
        assert.equal(again.rt.table.game.profile, TO);
        // The start's record of its rules is the switch's: the same rule set, reference and day.
        const records = journalOf(again.ledger)
          .filter((e) => e.type === 'rules.record')
          .map((e) => PAYLOADS['rules.record'].parse(JSON.parse(e.body).payload));
        const [switched, reopened] = records.slice(-2);
        assert.deepEqual(
          [reopened?.cause, reopened?.digest, reopened?.reference, reopened?.effective],
          ['open', switched?.digest, switched?.reference, switched?.effective],
        );
        assert.deepEqual([again.rt.recovery.foldProblems, again.rt.recovery.voided, again.rt.recovery.resumedRound], [[], [], null]);
        assert.equal(again.ledger.credit(1), credit);
        again.round();
        assert.equal(again.ledger.credit(1), credit + BANKER_SIX_WINS[TO]!);
        // Delivered again (the upstream had not seen the journal): answered, never made twice.
        again.remote.receive(profileOrder(7).answer);
        assert.deepEqual(again.remote.pending(), []);
      } finally {
        again.stop();
      }
    }));

  it('chips on the spots at the shoe change: the order waits for the next shoe', () =>
    withDir(async (dir) => {
      const t = openShoeHost(dir);
      try {
        t.round();
        t.remote.receive(profileOrder(8).answer);
        t.burn();
        assert.equal(t.rt.table.commands.placeBet(1, { bet: 'player' }, 10_000).ok, true);
        await t.newShoe();
        assert.equal(t.rt.table.game.profile, FROM, 'not with chips on the spots');
        assert.deepEqual(
          t.remote.pending().map((o) => o.id),
          [8],
        );
        assert.equal(answeredOrders(t.ledger).has(8), false);
        assert.equal(t.rt.table.commands.clearBets(1).ok, true);
        await t.newShoe();
        assert.equal(t.rt.table.game.profile, TO);
      } finally {
        t.stop();
      }
    }));

  it("another game's profile, or one the guard refuses, is refused, journalled and alarmed; the game plays on", () =>
    withDir(async (dir) => {
      const t = openShoeHost(dir);
      try {
        // Blackjack's Macau 2004 on a baccarat table; an unknown profile.
        t.remote.receive(profileOrder(9, 'macau-2004').answer);
        t.remote.receive(profileOrder(10, 'macau-1999').answer);
        await t.newShoe();
        assert.equal(t.rt.table.game.profile, FROM);
        const refused = configRefusals(t.ledger);
        assert.deepEqual(
          refused.map((r) => r.order),
          [9, 10],
        );
        assert.match(refused[0]?.reason ?? '', /profile of blackjack/);
        assert.match(refused[1]?.reason ?? '', /no rule profile "macau-1999"/);
        assert.equal(t.alarms.filter((a) => /refused by this table/.test(a)).length, 2, t.alarms.join('\n'));
        // Journalled as the staff-only fault the upstream alarms (config-order), one per order, each with why.
        const faults = journalOf(t.ledger)
          .filter((e) => e.type === 'tilt.raise')
          .map((e) => PAYLOADS['tilt.raise'].parse(JSON.parse(e.body).payload));
        assert.deepEqual(
          faults.map((f) => [f.kind, /order (\d+)/.exec(f.detail ?? '')?.[1]]),
          [
            ['config-order', '9'],
            ['config-order', '10'],
          ],
        );
        // Standing until a supervisor clears it (one fault of its kind, each order journalled).
        assert.deepEqual(
          t.rt.tilts.list().map((f) => f.kind),
          ['config-order'],
        );
        assert.equal(
          journalOf(t.ledger).filter((e) => e.type === 'config.change' || e.type === 'rules.record').length,
          1,
          'only the record of the open: nothing changed',
        );
      } finally {
        t.stop();
      }
    }));
});
