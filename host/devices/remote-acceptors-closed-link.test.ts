// A station agent's link the host closes for what it said (no hello first, a mode or an acceptor
// protocol the table refuses, an unknown credential) is sent a close frame, and the LAN listener
// cuts it only when the agent has not answered within LAN_CLOSE_GRACE_MS (ws waited 30 s before).
// Until then its messages still arrived here and were handled: a link refused for its acceptor's
// protocol greeted again with the pinned one and became the station's link, replacing the agent's
// own (which was ended), on a connection the host had closed. Nothing a closed link says is handled.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { DEVICE_PROTOCOL_VERSION } from '../../protocol/index.js';
import { ledgerStationJournal } from '../stadium/credential-journal.js';
import { RemoteStations } from '../stadium/remote-stations.js';
import { noNoteMoves } from '../testing/no-note-moves.js';
import { RemoteAcceptors } from './remote-acceptors.js';

function setup() {
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const stations = RemoteStations.inDataDir(mkdtempSync(path.join(os.tmpdir(), 'zz-closed-link-')), ledgerStationJournal(ledger), log);
  const { secret } = stations.enrol(101, ['Ana', 'Rui']);
  const acceptors = new RemoteAcceptors({
    ledger,
    log,
    credits: noNoteMoves(),
    stations,
    hasStation: () => true,
    accepted: () => [100],
    protocolOf: () => 'ssp',
  });
  const hello = (acceptor: 'id003' | 'ssp') => JSON.stringify({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret, acceptor });
  const open = () => {
    const said: string[] = [];
    const closes: string[] = [];
    const link = acceptors.open(
      (text) => said.push(text),
      (_code, reason) => closes.push(reason),
    );
    return { link, said, closes };
  };
  return { acceptors, hello, open };
}

describe('a station agent link the host closed for what it said', () => {
  it('refused for its acceptor protocol, is not greeted by a hello that follows', () => {
    const { acceptors, hello, open } = setup();
    const own = open();
    own.link.receive(hello('ssp'));
    assert.equal(own.link.greeted(), true);
    const closed = open();
    closed.link.receive(hello('id003'));
    assert.deepEqual(closed.closes, ['acceptor protocol']);
    closed.link.receive(hello('ssp'));
    assert.equal(closed.link.greeted(), false, 'the closed link was greeted');
    assert.equal(own.link.greeted(), true, "the agent's own link was replaced by a closed one");
    assert.equal(acceptors.connected(101), true);
  });

  it('closed for a message before its hello, is not greeted by a hello that follows', () => {
    const { hello, open } = setup();
    const closed = open();
    closed.link.receive(JSON.stringify({ type: 'event', event: 'idle' }));
    assert.deepEqual(closed.closes, ['hello-device required']);
    closed.link.receive(hello('ssp'));
    assert.equal(closed.link.greeted(), false, 'the closed link was greeted');
    assert.ok(!closed.said.some((t) => t.includes('device-welcome')), 'the closed link was welcomed');
  });
});
