// A note held for a person, settled in service mode (Devices page) through a real host and service
// screen. Before, a note the host answered "stack" to and that no acceptor would end stayed open for
// ever: counted against its station's credit limit, listed open in the back office, with nothing on
// the floor to close it. The screen is hostile first: it names a note its acceptor still has, one of
// another station, one that does not exist, an outcome the protocol does not have, and asks twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { realTimers } from '../../host/table/timers.js';
import { notesOnTheirWay } from '../../ledger/index.js';
import { RETURNED_BY_HAND } from '../../host/devices/notes-held.js';
import { escrowTxId } from '../../host/recovery/escrow.js';
import { folderWithAccounts, journalled, serviceScreen, signIn, startServiceHost, stopServiceHost, TECH } from './service-kit.js';

describe('a note held for a person, settled on the Devices page', { timeout: 120_000 }, () => {
  it('only a held note is settled, once, journalled with who; the acceptor’s own and any forged one are refused', async () => {
    const dir = await folderWithAccounts();
    const config = simulatedTableConfig('blackjack');
    const running = await startServiceHost(dir, realTimers, config);
    const screen = await serviceScreen(running);
    try {
      const { ledger } = running;
      const currency = config.currency;
      const escrow = (id: string, amount: number) =>
        ledger.append({
          type: 'bill.escrow',
          payload: { station: 1, device: 'BA-1', denomination: amount, currency, escrowId: id },
          txId: escrowTxId('BA-1', id),
        }).entry.seq;
      // An acceptor holds one note at a time: the older escrow is behind the newer, which is its acceptor's.
      const older = escrow('lost-1', 50_000);
      const newer = escrow('lost-2', 10_000);
      assert.equal(notesOnTheirWay(ledger, 1), 60_000);

      await signIn(screen, TECH);
      assert.equal((await screen.press({ name: 'service-page', page: 'devices' })).type, 'ack');
      const listed = await screen.until((s) => s.page?.page === 'devices' && (s.page.notesHeld?.length ?? 0) > 0, 'the held note listed');
      const held = listed.page?.page === 'devices' ? listed.page.notesHeld : undefined;
      assert.deepEqual(
        held?.map((n) => [n.station, n.seq, n.amount, n.twoPerson]),
        [[1, older, 50_000, false]],
      );

      const settle = async (action: { station: number; seq: number; outcome: string }) => {
        const r = await screen.act({ name: 'service-action', action: { kind: 'note-settle', ...action } as never }, `note-settle ${JSON.stringify(action)}`);
        return r.reply.type === 'ack' ? r.state?.notice?.key : `${r.reply.type}`;
      };
      // The acceptor's own note, another station's, one that is no escrow: refused, nothing journalled.
      assert.equal(await settle({ station: 1, seq: newer, outcome: 'stacked' }), 'serviceRefusal.noteNoneHeld');
      assert.equal(await settle({ station: 2, seq: older, outcome: 'stacked' }), 'serviceRefusal.noteNoneHeld');
      assert.equal(await settle({ station: 1, seq: 999_999, outcome: 'returned' }), 'serviceRefusal.noteNoneHeld');
      // An outcome the protocol does not have is no action at all.
      assert.notEqual(await settle({ station: 1, seq: older, outcome: 'kept' }), 'service.done.noteStacked');
      assert.deepEqual(journalled(running, 'bill.return'), []);
      assert.deepEqual(journalled(running, 'bill.credit'), []);

      assert.equal(await settle({ station: 1, seq: older, outcome: 'returned' }), 'service.done.noteReturned');
      const returns = journalled<{ escrowSeq: number; reason: string; denomination: number }>(running, 'bill.return');
      assert.deepEqual(
        returns.map((r) => [r.escrowSeq, r.reason, r.denomination]),
        [[older, RETURNED_BY_HAND, 50_000]],
      );
      const actions = journalled<{ action: string; who: string }>(running, 'service.action').filter((a) => a.action === 'note-settle');
      assert.deepEqual(
        actions.map((a) => [a.who, a.seq]),
        [[`${TECH.name} (${TECH.staff})`, (returns[0]?.seq ?? 0) + 1]],
      );
      assert.equal(notesOnTheirWay(ledger, 1), 10_000, 'only the newer note is still on its way');
      assert.equal(ledger.credit(1), 0, 'returned: nothing credited');
      await screen.until((s) => s.page?.page === 'devices' && (s.page.notesHeld?.length ?? 0) === 0, 'the list empty once settled');
      // Asked again (a second screen, a replay): settled once.
      assert.equal(await settle({ station: 1, seq: older, outcome: 'stacked' }), 'serviceRefusal.noteNoneHeld');
      assert.equal(journalled(running, 'bill.credit').length, 0);
    } finally {
      await screen.close();
      await stopServiceHost(running, dir);
    }
  });
});
