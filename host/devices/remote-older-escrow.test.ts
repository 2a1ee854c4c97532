// A station agent that runs the driver itself (`mode: driver`) greets the host while the journal
// holds two open escrows at its acceptor: the older one's end never reached the host (a lost
// message, a killed agent). Before, the hello journalled the older one returned ("a later note was
// taken in"): the player's note said given back whether it had gone into the cashbox or not. As at
// a seated station (host/devices/notes-held.ts), a note behind a newer escrow is a person's to
// settle: held on the Devices page, its end journalled by whoever looked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { DEVICE_PROTOCOL_VERSION } from '../../protocol/index.js';
import { escrowTxId } from '../recovery/escrow.js';
import { NotesHeld } from './notes-held.js';
import { RemoteAcceptors, remoteDevice } from './remote-acceptors.js';
import { noNoteMoves } from '../testing/no-note-moves.js';

const STATION = 101;

describe('a driver-mode agent greeted with two open escrows at its acceptor', () => {
  it('leaves the older one held for a person, journals no return, and hands the newer one to its driver', async () => {
    const log = pino({ level: 'silent' });
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
    const device = remoteDevice(STATION);
    const escrow = (escrowId: string) =>
      ledger.append({
        type: 'bill.escrow',
        payload: { station: STATION, device, denomination: 10_000, currency: 'MOP', escrowId },
        txId: escrowTxId(device, escrowId),
      }).entry.seq;
    const older = escrow('e1');
    escrow('e2');
    const notes = new NotesHeld({ ledger, configured: () => new Set([STATION]) });
    const acceptors = new RemoteAcceptors({
      ledger,
      log,
      credits: noNoteMoves(),
      stations: { verify: () => true, onRevoked: () => () => undefined },
      hasStation: (s) => s === STATION,
      accepted: () => [100],
      notes,
    });
    const sent: { type: string; pendingNote?: { escrowId: string } | null }[] = [];
    const link = acceptors.open(
      (text) => sent.push(JSON.parse(text) as (typeof sent)[number]),
      () => undefined,
    );
    try {
      link.receive(
        JSON.stringify({
          type: 'hello-device',
          protocol: DEVICE_PROTOCOL_VERSION,
          station: STATION,
          secret: 'x'.repeat(40),
          acceptor: 'id003',
          mode: 'driver',
        }),
      );
      const end = Date.now() + 5_000;
      while (!sent.some((m) => m.type === 'device-welcome')) {
        assert.ok(Date.now() < end, `no welcome: ${JSON.stringify(sent)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const welcome = sent.find((m) => m.type === 'device-welcome');
      assert.equal(welcome?.pendingNote?.escrowId, 'e2', 'the newer note is the driver’s to end');
      assert.deepEqual([...entriesOfTypes(ledger, ['bill.return', 'bill.credit'])], [], 'nothing said of the older note');
      assert.deepEqual(
        notes.held().map((n) => n.seq),
        [older],
        'the older note waits for a person',
      );
    } finally {
      link.dispose();
      ledger.close();
    }
  });
});
