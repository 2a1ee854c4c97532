// A station's own part published to its edge as the patch alone (issue 55): the edge chains it on
// the version it holds and makes the whole only when a connection needs it, the same state as the
// host's whole of that version; a patch that does not fit asks for the part whole; the message
// format says which came, and only a station's own part may come without its whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedMessage, type Update } from '../screens/outbox.js';
import { patchMessage } from '../screens/encode-view.js';
import { ChainedOwn } from './own-chain.js';
import { decodeUpdate, encodeUpdate } from './subjects.js';

const VIEW = 'station/101';
const snapshot = (version: number, state: object) => new SharedMessage(JSON.stringify({ type: 'snapshot', view: VIEW, version, state }));
const whole = (version: number, state: object): Update => ({ version, patch: null, whole: () => snapshot(version, state) });

/** A station's own part over a few versions, as the host builds them. */
const states = [
  { kind: 'station', station: 101, credit: 100_000, betting: { open: true, bets: [] as object[] }, language: 'zh-Hant' },
  { kind: 'station', station: 101, credit: 99_000, betting: { open: true, bets: [{ bet: 'banker', amount: 1000 }] }, language: 'zh-Hant' },
  { kind: 'station', station: 101, credit: 99_000, betting: { open: false, bets: [{ bet: 'banker', amount: 1000 }] }, language: 'zh-Hant' },
  { kind: 'station', station: 101, credit: 100_950, betting: { open: false, bets: [] }, language: 'zh-Hant', last: { won: 1950 } },
];

function chainOf(counts: { made: number; failed: number }): Update {
  let u: Update = whole(1, states[0]!);
  for (let i = 1; i < states.length; i++) {
    const patch = patchMessage(VIEW, i + 1, states[i - 1]!, states[i]!, 10_000);
    assert.ok(patch);
    u = new ChainedOwn(i + 1, patch, u, VIEW, { made: () => counts.made++, failed: () => counts.failed++ });
  }
  return u;
}

describe('a station’s own part chained at its edge', () => {
  it('makes the whole of the last version from the first whole and the patches, only when asked, once', () => {
    const counts = { made: 0, failed: 0 };
    const u = chainOf(counts);
    assert.equal(counts.made, 0, 'nothing made while no connection needs a whole');
    const m = JSON.parse(u.whole().text) as { type: string; view: string; version: number; state: unknown };
    assert.deepEqual(m, { type: 'snapshot', view: VIEW, version: 4, state: states[3] });
    assert.equal(u.whole(), u.whole(), 'made once');
    assert.equal(counts.made, 1);
    assert.equal(counts.failed, 0);
  });

  it('a patch that does not fit the version before: the part is asked for whole, the connection sent an error meanwhile', () => {
    const counts = { made: 0, failed: 0 };
    const wrong = new SharedMessage(JSON.stringify([VIEW, 2, [['set', ['betting', 'nowhere', 'x'], 1]]]));
    const u = new ChainedOwn(2, wrong, whole(1, states[0]!), VIEW, { made: () => counts.made++, failed: () => counts.failed++ });
    const m = JSON.parse(u.whole().text) as { type: string; code: string };
    assert.equal(m.type, 'error');
    assert.equal(counts.failed, 1);
    assert.equal(counts.made, 0);
  });

  it('publishes a patch alone and reads it back; only a station’s own part may come without its whole', () => {
    const patch = patchMessage(VIEW, 2, states[0]!, states[1]!, 10_000);
    assert.ok(patch);
    const update: Update = { version: 2, patch, whole: () => snapshot(2, states[1]!) };
    const alone = decodeUpdate(encodeUpdate('ep1', `view:${VIEW}`, update, false));
    assert.ok(alone);
    assert.equal(alone.patchOnly, true);
    assert.equal(alone.update.version, 2);
    assert.equal(alone.update.patch?.text, patch.text);
    assert.throws(() => alone.update.whole());
    const both = decodeUpdate(encodeUpdate('ep1', `view:${VIEW}`, update));
    assert.ok(both);
    assert.equal(both.patchOnly, false);
    assert.equal(both.update.whole().text, snapshot(2, states[1]!).text);
    // A public part (kept in the stream for whoever joins) comes whole, always.
    assert.equal(decodeUpdate(encodeUpdate('ep1', 'public:round', update, false)), null);
    assert.throws(() => encodeUpdate('ep1', `view:${VIEW}`, whole(3, states[2]!), false), /needs its patch/);
  });
});
