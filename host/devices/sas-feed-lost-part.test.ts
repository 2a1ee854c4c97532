// A station's part of sas-reported.json that no write ever kept (a review of the failing-disk
// change): a station whose part was lost (both copies damaged) re-reads the run before this one,
// but the store kept that only in memory, so the next save by ANOTHER station wrote the file
// without it and the restart after took the station for a first use (from that run, no 70): what
// its casino system had not acknowledged was gone. The same for a station that never had a save
// (none acknowledged yet): its part was never written, and a restart dropped the run before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { z } from 'zod';
import { ExceptionQueue } from '../../hardware/sas/exceptions.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { readStateFileChecked } from '../tickets/state-file.js';
import { journalFacts, REPORTED_FILE, ReportedStore, StationFeed } from './sas-feed.js';

const machine = () => {
  const q = new ExceptionQueue(20);
  return { exceptions: q, raise: (c: number, t?: string) => void q.raise(c, t) };
};
const log = { warn: () => undefined, error: () => undefined };

describe("a station's part no write kept", () => {
  let dir: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-lost-part-'));
    ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const power = (clean: boolean) => ledger.append({ type: 'power.reset', payload: { clean, softwareVersion: '0.1.0' } });
  /** Stations 1 and 2 on one store, as the host runs them. */
  const run = () => {
    const store = new ReportedStore(dir, log);
    const feed = (s: number) => {
      const m = machine();
      return { f: new StationFeed(s, { ledger, store, machine: m, facts: journalFacts(ledger), log }), m };
    };
    const a = feed(1);
    const b = feed(2);
    const off = ledger.onAppended((e) => {
      a.f.appended(e);
      b.f.appended(e);
    });
    return { a, b, off };
  };
  const poll = (x: { f: StationFeed; m: ReturnType<typeof machine> }): string[] => {
    const tags: string[] = [];
    for (let c = x.m.exceptions.peek(); c !== 0; c = x.m.exceptions.peek()) {
      const d = x.m.exceptions.acknowledge(c);
      tags.push(d?.tag ?? '?');
      if (d?.tag) x.f.acknowledged(d.tag);
    }
    return tags;
  };

  it('a lost part is written with the next save of any station: the restart after still reads what was not acknowledged', () => {
    power(true);
    let r = run();
    ledger.append(billCredit(1, 10_000, 'a1'));
    poll(r.a);
    ledger.append(billCredit(2, 10_000, 'b-unacked')); // station 2's casino system never polls
    const owed = ledger.headOf().seq;
    ledger.append(billCredit(1, 10_000, 'a2'));
    poll(r.a);
    const file = path.join(dir, REPORTED_FILE);
    const j = JSON.parse(readFileSync(file, 'utf8')) as { stations: Record<string, unknown> };
    j.stations['2'] = { garbage: 1 };
    writeFileSync(file, JSON.stringify(j));
    writeFileSync(`${file}.prev`, JSON.stringify(j));
    r.off();
    power(false);
    r = run(); // station 2 lost: it re-reads the run before
    ledger.append(billCredit(1, 10_000, 'a3'));
    poll(r.a); // station 1 saves the file
    r.off();
    power(false);
    r = run();
    assert.ok(poll(r.b).includes(`${owed}.0`), 'the note station 2 never acknowledged is reported');
  });

  it('a station that never had a save keeps its place: a restart reports what it had not acknowledged in the run before', () => {
    power(true);
    let r = run();
    ledger.append(billCredit(2, 10_000, 'b-unacked')); // station 2 never polls in this run
    const owed = ledger.headOf().seq;
    ledger.append(billCredit(1, 10_000, 'a1'));
    poll(r.a); // station 1 saves
    r.off();
    power(false);
    r = run();
    assert.ok(poll(r.b).includes(`${owed}.0`), 'reported after the restart');
  });

  it('a file whose metadata cannot be read is damaged, not missing (a failing disk is never a first use)', () => {
    const file = path.join(dir, REPORTED_FILE);
    symlinkSync(file, file); // ELOOP, standing in for EIO on the file's metadata
    assert.equal(readStateFileChecked(file, z.unknown()).state, 'damaged');
    assert.equal(new ReportedStore(dir, log).damaged(1), true);
  });
});
