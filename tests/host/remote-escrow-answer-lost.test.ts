// The stadium soak's open escrow (4 December CI: an escrow of a station whose agent runs the
// driver, neither credited nor returned in the ledger 60 s after every note was out of every
// acceptor). The host journals the escrow and answers "stack"; the answer never reaches the agent
// (the link cut with it on its way, or the host killed after the entry). The agent's driver gives
// the note back on its escrow timeout, and the agent is killed before its return reaches the host.
// The next agent hears the escrow from the host's welcome (`pendingNote`) and finds the unit idle.
// Before, its driver read that as a note told to stack that vanished (a violation no agent relays):
// the escrow stayed open for good. A unit idle with no VEND VALID did not stack the note: it is
// said returned, and the host journals the return against the escrow.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { Id003Simulator, openBillAcceptor, serveDevice } from '../../hardware/index.js';
import { entriesOfTypes, Ledger, unresolvedEscrows } from '../../ledger/index.js';
import { CreditRule } from '../../host/devices/credit-rule/credit-rule.js';
import { RemoteAcceptors } from '../../host/devices/remote-acceptors.js';
import { ledgerStationJournal } from '../../host/stadium/credential-journal.js';
import { RemoteStations } from '../../host/stadium/remote-stations.js';
import { DeviceRelay } from '../../host/station-agent/device-relay.js';
import { agentEnrolment } from '../../host/station-agent/test-enrolment.js';

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an escrow whose "stack" never reached the agent, the agent killed after the note went back', { timeout: 60_000 }, () => {
  it('the next agent says the note returned and the ledger closes the escrow', async () => {
    const log = pino({ level: 'silent' });
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
    const stations = RemoteStations.inDataDir(mkdtempSync(path.join(os.tmpdir(), 'zz-answer-lost-')), ledgerStationJournal(ledger), log);
    const { secret } = stations.enrol(101, ['Ana', 'Rui']);
    const faults: string[] = [];
    const credits = new CreditRule({ ledger, log, currency: 'MOP', accepted: () => [100], fault: (_s, say) => faults.push(say.key) });
    const acceptors = new RemoteAcceptors({ ledger, log, credits, stations, hasStation: (s) => s === 101, accepted: () => [100] });

    // The table's listener: the first "stack" answer is lost with the link, and the host takes no
    // link until the test lets it (the first agent is killed meanwhile, its return unheard).
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => server.once('listening', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let loseDecision = true;
    let listening = true;
    server.on('connection', (ws) => {
      if (!listening) return ws.terminate();
      const link = acceptors.open(
        (text) => {
          if (loseDecision && (JSON.parse(text) as { type: string }).type === 'decision') {
            loseDecision = false;
            listening = false;
            return ws.terminate();
          }
          ws.send(text);
        },
        (code, reason) => ws.close(code, reason),
      );
      ws.on('message', (data) => link.receive(String(data)));
      ws.on('close', () => link.dispose());
    });

    // The unit outlives the agents (its own process on the station's machine).
    const sim = new Id003Simulator({ currency: 'MOP' });
    const device = await serveDevice(sim, '127.0.0.1', 0);
    const agent = () =>
      new DeviceRelay({
        enrolment: { ...agentEnrolment(101), secret },
        spec: `tcp:127.0.0.1:${device.port}`,
        protocol: 'id003',
        currency: 'MOP',
        log,
        connect: () => new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false }),
        // The driver's escrow timeout short, so the test waits 0.5 s for it and not 5 s.
        open: (spec, o) => openBillAcceptor(spec, { ...o, escrowTimeoutMs: 500 }),
      });
    const first = agent();
    let second: DeviceRelay | null = null;
    try {
      first.start();
      await until('the first agent welcomed', () => first.connected());
      await until('the acceptor idle', () => sim.state === 'enabled');
      sim.insertNote(100);
      await until('the escrow journalled', () => unresolvedEscrows(ledger).length === 1);
      await until('the note given back on the escrow timeout', () => sim.returned.length === 1);
      await first.stop(); // killed: its return never reached the host
      assert.equal(unresolvedEscrows(ledger).length, 1, 'the host heard nothing of the return');

      listening = true;
      second = agent();
      second.start();
      await until('the escrow closed in the ledger', () => unresolvedEscrows(ledger).length === 0);
      assert.deepEqual(
        [...entriesOfTypes(ledger, ['bill.return', 'bill.credit'])].map((e) => e.type),
        ['bill.return'],
      );
      assert.equal(ledger.credit(101), 0);
      assert.deepEqual(sim.cashbox, []);
      assert.deepEqual(faults, []);
    } finally {
      await first.stop();
      await second?.stop();
      await device.close();
      for (const c of server.clients) c.terminate();
      server.close();
      ledger.close();
    }
  });
});
