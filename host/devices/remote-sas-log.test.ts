// A remote station's agent, greeted with its credential, may send SAS messages at the SAS line's
// rate (200 a second, host/server/lan-server.ts). Each `sas-port` message was logged at info in the
// host's own log, whatever it said and however often, with its detail (up to 400 characters): a
// station repeating "open", or flapping open/closed, wrote some 100 KB a second into host.log, which
// the station's own client budget never saw, and rotated the log's history away in minutes. Now a
// port is logged when it changes (or says why anew), in the link's own log (the station's budget) where it has one.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { RemoteSas } from './remote-sas.js';

function capture(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const detail = 'd'.repeat(400);

describe("a remote station's SAS port messages in the host's log", () => {
  it('"open" said 1,000 times: one line', () => {
    const host = capture();
    const sas = new RemoteSas(new Set([101]), host.log);
    const link = { send: () => undefined };
    sas.attach(101, link);
    for (let i = 0; i < 1000; i++) assert.equal(sas.receive(101, link, { type: 'sas-port', open: true, detail }), null);
    assert.equal(host.lines.filter((l) => l.includes('SAS port')).length, 1);
    // A port that goes, and then says why anew each time it fails to open: each reason said once.
    for (const why of ['gone', 'gone', 'ENOENT', 'ENOENT']) sas.receive(101, link, { type: 'sas-port', open: false, detail: why });
    assert.equal(host.lines.filter((l) => l.includes('SAS port')).length, 3);
  });

  it("open and closed in turn: each change in the link's own log, none in the host's", () => {
    const host = capture();
    const station = capture();
    const sas = new RemoteSas(new Set([101]), host.log);
    const link = { send: () => undefined, log: station.log };
    sas.attach(101, link);
    for (let i = 0; i < 100; i++) sas.receive(101, link, { type: 'sas-port', open: i % 2 === 0, detail });
    assert.equal(host.lines.filter((l) => l.includes('SAS port')).length, 0);
    assert.equal(station.lines.filter((l) => l.includes('SAS port')).length, 100);
  });
});
