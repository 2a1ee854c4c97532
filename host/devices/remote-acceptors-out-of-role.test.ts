// A station agent's messages that pass the device schema but are no part of its link's role: bytes
// on a link greeted to run the driver, a note's escrow, credit or return on a link greeted to relay
// bytes, a second hello. An agent built with this schema never sends one; a hostile one may send
// them for ever. Malformed messages are counted toward closing the link (the listener's
// RELAY_REFUSALS, 341572d5); these were only held to the message rate and answered 'refused' for
// as long as the link stayed. The credit rule's own refusals stay uncounted (an honest agent resends
// a note the device repeats: docs/security.md), and so do SAS messages a table without the
// station's SAS line refuses (a configuration's mismatch, its acceptor still the station's).
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
import { RemoteAcceptors, type DeviceRateKind } from './remote-acceptors.js';

/** The listener's count of refused protocol messages, as RELAY_REFUSALS holds it: 20, then closed. */
const ALLOWED = 20;

function setup(
  verdict: (kind: DeviceRateKind, counted: number) => 'ok' | 'refused' | 'close' | 'rate' = (kind, n) => (kind === 'malformed' && n > ALLOWED ? 'close' : 'ok'),
) {
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const stations = RemoteStations.inDataDir(mkdtempSync(path.join(os.tmpdir(), 'zz-out-of-role-')), ledgerStationJournal(ledger), log);
  const { secret } = stations.enrol(101, ['Ana', 'Rui']);
  const acceptors = new RemoteAcceptors({
    ledger,
    log,
    credits: noNoteMoves(),
    stations,
    hasStation: () => true,
    accepted: () => [100],
    relayed: { attachRelayed: () => undefined, detachRelayed: () => Promise.resolve(), wake: () => undefined },
  });
  const open = (mode: 'driver' | 'relay') => {
    const said: string[] = [];
    const closes: string[] = [];
    let counted = 0;
    const allow = (kind: DeviceRateKind) => verdict(kind, kind === 'malformed' ? ++counted : counted);
    const link = acceptors.open(
      (text) => said.push(text),
      (_code, reason) => closes.push(reason),
      allow,
    );
    link.receive(JSON.stringify({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret, acceptor: 'id003', mode }));
    assert.ok(
      said.some((t) => t.includes('device-welcome')),
      'welcomed',
    );
    return { link, said, closes, counted: () => counted };
  };
  return { open, secret, close: () => ledger.close() };
}

/** Sends a message 60 times, or until the link is closed; how many were answered 'refused'. */
function flood(l: ReturnType<ReturnType<typeof setup>['open']>, m: object): number {
  for (let i = 0; i < 60 && l.closes.length === 0; i++) l.link.receive(JSON.stringify(m));
  return l.said.filter((t) => t.includes('"refused"')).length;
}

describe("a station agent's messages out of its link's role", () => {
  it('bytes on a driver link, kept up: counted and the link closed', () => {
    const s = setup();
    try {
      const l = s.open('driver');
      const refused = flood(l, { type: 'bytes', data: 'AAAA' });
      assert.equal(refused, ALLOWED, 'each answered refused until the count ran out');
      assert.equal(l.closes.length, 1, 'the link was closed');
    } finally {
      s.close();
    }
  });

  it('a money message on a relay link, kept up: counted and the link closed', () => {
    const s = setup();
    try {
      const l = s.open('relay');
      flood(l, { type: 'credit', id: 'c1', escrowId: 'e1', denomination: 100, currency: 'HKD', amount: 10_000, recovered: false });
      assert.equal(l.closes.length, 1, 'the link was closed');
    } finally {
      s.close();
    }
  });

  it('a second hello, kept up: counted and the link closed', () => {
    const s = setup();
    try {
      const l = s.open('driver');
      flood(l, { type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret: s.secret, acceptor: 'id003', mode: 'driver' });
      assert.equal(l.closes.length, 1, 'the link was closed');
    } finally {
      s.close();
    }
  });

  it("SAS messages a table without the station's SAS line refuses: not counted, the link kept", () => {
    const s = setup();
    try {
      const l = s.open('driver');
      flood(l, { type: 'sas-port', open: true });
      assert.equal(l.counted(), 0);
      assert.deepEqual(l.closes, []);
    } finally {
      s.close();
    }
  });

  // A malformed or out-of-role message past the link's message rate closed it as 'malformed
  // messages' (lan-server.ts linkRates said 'close' for both): the agent and the log were told the
  // wrong cause. Over the rate it is 'rate limit', as any message over the rate is.
  it('a malformed message over the message rate closes the link for its rate, not as malformed', () => {
    const s = setup((kind) => (kind === 'malformed' ? 'rate' : 'ok'));
    try {
      const l = s.open('driver');
      l.link.receive('{"type":"escrow","id":"m1","amount":-1}');
      assert.deepEqual(l.closes, ['rate limit']);
      const o = s.open('driver');
      o.link.receive(JSON.stringify({ type: 'bytes', data: 'AAAA' }));
      assert.deepEqual(o.closes, ['rate limit'], 'an out-of-role message too');
    } finally {
      s.close();
    }
  });
});
