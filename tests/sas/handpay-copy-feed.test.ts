// The machine's reissued copy of exception 51 (SAS 6.02 §7.8.1; docs/sas.md "Exceptions") and the
// journal feed's own tagged 51 (docs/sas.md "Exceptions from the journal") in one flag: the real
// machine on a manual clock, the real feed on a ledger in memory, wired as host/start/sas-links.ts
// wires them (an acknowledgement with a tag goes to the feed). The feed raises its exceptions in
// journal order and hears each one's acknowledgement exactly once; the copy is nobody's event.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ExceptionQueue } from '../../hardware/sas/exceptions.js';
import { SasMachine } from '../../hardware/sas/machine.js';
import { journalFacts, ReportedStore, StationFeed } from '../../host/devices/sas-feed.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, type NewEntry } from '../../ledger/index.js';
import { ManualClock, MemoryGame } from './fixture.js';

const A = 5;
const STATION = 1;
const OTHER = 1;
// Table A-1.
const HANDPAY_PENDING = 0x51;
const HANDPAY_RESET = 0x52;
const HANDPAY = { progressiveGroup: 0, level: 0x80, amount: 500, partialPay: 0, resetId: 0 } as const;

const cashOut = (txId: string): NewEntry => ({ type: 'credit.cancel', txId, payload: { station: STATION, amount: 500, reason: 'by hand' } });
const paid = (txId: string, requestTxId: string): NewEntry => ({
  type: 'handpay.confirm',
  txId,
  payload: { station: STATION, requestTxId, amount: 500, attendant: 'att-1' },
});

describe('SAS: the reissued copy of 51 and the journal’s own 51 (§7.8.1)', () => {
  let dir: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-copy-feed-'));
    ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rig = () => {
    const clock = new ManualClock();
    const game = new MemoryGame();
    const out: number[][] = [];
    const machine = new SasMachine({ address: A, game, clock, write: (b) => out.push([...b]) });
    const feed = new StationFeed(STATION, { ledger, store: new ReportedStore(dir), machine, facts: journalFacts(ledger) });
    /** Each tag the feed heard acknowledged, as often as it heard it; the handpay notes the machine reported. */
    const heard: string[] = [];
    const notes: (number | null)[] = [];
    machine.events.on((e) => {
      if (e.type === 'handpay-note') notes.push(e.ackedAt);
      if (e.type === 'exception-acked' && e.tag !== undefined) {
        heard.push(e.tag);
        feed.acknowledged(e.tag);
      }
    });
    const offAppended = ledger.onAppended((entries) => feed.appended(entries));
    machine.start();
    const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
    send([0x80 | OTHER]);
    /** General polls, each acknowledged by a poll to another address, until one answers 00 (at most `limit`). */
    const read = (limit = 10): number[] => {
      const codes: number[] = [];
      for (let i = 0; i < limit; i++) {
        out.length = 0;
        send([0x80 | A]);
        const code = out[0]?.[0];
        send([0x80 | OTHER]);
        if (code === undefined || code === 0) break;
        codes.push(code);
      }
      return codes;
    };
    /** Time passes with the host cycling (another address polled every second). */
    const cycle = (ms: number): void => {
      for (let t = 0; t < ms; t += 1_000) {
        clock.advance(1_000);
        send([0x80 | OTHER]);
      }
    };
    const stop = (): void => {
      offAppended();
      machine.stop();
    };
    return { clock, game, machine, feed, heard, notes, read, cycle, send, stop };
  };

  /** The key the feed tags an entry's only exception with. */
  const keyOf = (e: NewEntry): string => `${ledger.append(e).entry.seq}.0`;

  /**
   * A handpay whose 51 the system acknowledged without asking 1B, paid before its 15 s were up, and
   * a new one at the same station (`more`: entries journalled between them); the system polls
   * nothing of this station meanwhile. The feed raises 52 and holds the new 51 behind it (journal
   * order); 15 s after the first acknowledgement a handpay is pending (the new one): the machine
   * raises its copy of 51. Returns the feed's keys after the first handpay's, each entry's one exception.
   */
  const paidThenAnother = (r: ReturnType<typeof rig>, more: NewEntry[] = []) => {
    assert.deepEqual(r.read(), [0x17], 'the start: power applied');
    // Credit for both cash-outs.
    ledger.append(billCredit(STATION, 10_000, 'n0'));
    r.game.pendingHandpay = { ...HANDPAY };
    const first = keyOf(cashOut('c1'));
    assert.deepEqual(r.read(), [HANDPAY_PENDING, 0x4c], 'the handpay first (a priority exception), then the note');
    assert.ok(r.heard.includes(first));
    r.heard.length = 0;
    r.cycle(5_000);
    const reset = keyOf(paid('p1', 'c1'));
    const between = more.map(keyOf);
    const second = keyOf(cashOut('c2'));
    r.cycle(11_000);
    assert.equal(r.machine.exceptions.peek(), HANDPAY_RESET, 'the reset waits first');
    return { reset, between, second };
  };

  it('a new handpay’s 51 journalled while the copy of 51 waits: the feed hears it acknowledged, once', () => {
    const r = rig();
    const k = paidThenAnother(r);
    assert.deepEqual(r.read(), [HANDPAY_RESET, HANDPAY_PENDING], 'one 51: the copy and the new handpay’s say the same');
    assert.deepEqual(r.heard, [k.reset, k.second], 'each of the feed’s exceptions heard acknowledged once, in journal order');
    assert.equal(r.feed.outstanding, 0, 'nothing of the journal left unreported');
    r.stop();
  });

  it('the same with a note journalled between: 51 once, the note after it', () => {
    const r = rig();
    const k = paidThenAnother(r, [billCredit(STATION, 10_000, 'n1')]);
    assert.deepEqual(r.read(), [HANDPAY_RESET, HANDPAY_PENDING, 0x4c]);
    assert.deepEqual(r.heard, [k.reset, k.second, ...k.between], 'each heard acknowledged once');
    assert.equal(r.feed.outstanding, 0);
    r.stop();
  });

  it('1B asked once the feed’s 51 has taken over the copy: the note is cleared, the feed’s 51 still reported and heard once', () => {
    const r = rig();
    const k = paidThenAnother(r);
    assert.deepEqual(r.read(1), [HANDPAY_RESET]);
    assert.equal(r.machine.exceptions.claimed(HANDPAY_PENDING), true, 'the feed’s 51 has the flag');
    r.send([A, 0x1b]);
    assert.deepEqual(r.notes.slice(-1), [null], '1B read: the kept note cleared');
    assert.deepEqual(r.read(), [HANDPAY_PENDING], 'an event of the journal is never withdrawn');
    assert.deepEqual(r.heard, [k.reset, k.second]);
    assert.equal(r.feed.outstanding, 0);
    r.stop();
  });
});

describe('SAS: a priority flag raised again (§2.2.1), the tag it keeps', () => {
  it('a tagged raise takes over a flag raised untagged: reported once, its tag handed back once, never withdrawn', () => {
    const q = new ExceptionQueue();
    q.raise(HANDPAY_PENDING);
    q.raise(HANDPAY_PENDING, 'journal');
    assert.equal(q.size, 1, 'one flag');
    assert.equal(q.withdrawUntagged(HANDPAY_PENDING), false, 'the raiser’s event stays');
    assert.deepEqual(q.acknowledge(HANDPAY_PENDING), { code: HANDPAY_PENDING, tag: 'journal' });
    assert.equal(q.acknowledge(HANDPAY_PENDING), null, 'once');
  });

  it('the reverse order: an untagged raise over a tagged flag leaves its tag', () => {
    const q = new ExceptionQueue();
    q.raise(HANDPAY_PENDING, 'journal');
    q.raise(HANDPAY_PENDING);
    assert.equal(q.claimed(HANDPAY_PENDING), true);
    assert.deepEqual(q.acknowledge(HANDPAY_PENDING), { code: HANDPAY_PENDING, tag: 'journal' });
  });

  it('a second tagged raise over a tagged flag is reported once and keeps the first tag (a raiser waits for `claimed` to clear)', () => {
    const q = new ExceptionQueue();
    q.raise(HANDPAY_PENDING, 'first');
    q.raise(HANDPAY_PENDING, 'second');
    assert.deepEqual(q.acknowledge(HANDPAY_PENDING), { code: HANDPAY_PENDING, tag: 'first' });
    assert.equal(q.peek(), 0x00);
  });
});
