import { ViewComposer, PROTOCOL_VERSION } from './index.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeClientMessage, decodeHostMessage, encode } from './codec.js';
import { MAX_MESSAGE_BYTES, utf8ByteLength } from './limits.js';
import { stationOf, stationView, ViewName } from './views.js';

const token = 'x'.repeat(32);

describe('client messages', () => {
  it('accepts a valid hello, subscribe and command', () => {
    for (const m of [
      { type: 'hello', id: 'h1', protocol: PROTOCOL_VERSION, token },
      { type: 'subscribe', id: 's1', view: 'station/3' },
      { type: 'command', id: 'c1', view: 'table', version: 4, command: { name: 'set-language', language: 'pt' } },
    ]) {
      const d = decodeClientMessage(JSON.stringify(m));
      assert.equal(d.ok, true, JSON.stringify(d));
    }
  });

  it('refuses malformed JSON with invalid-json', () => {
    const d = decodeClientMessage('{"type":');
    assert.equal(d.ok, false);
    assert.equal(!d.ok && d.error.code, 'invalid-json');
  });

  it('refuses unknown fields, unknown views and wrong types, echoing the id', () => {
    const cases = [
      { type: 'subscribe', id: 'a', view: 'station/8' },
      { type: 'subscribe', id: 'b', view: 'station/x' },
      { type: 'subscribe', id: 'c', view: 'table', extra: 1 },
      { type: 'command', id: 'd', view: 'table', version: -1, command: { name: 'set-language', language: 'pt' } },
      // The protocol takes any well-formed language tag (a catalogue added is a language); not this.
      { type: 'command', id: 'e', view: 'table', version: 1, command: { name: 'set-language', language: 'français!' } },
      { type: 'launch-missiles', id: 'f' },
    ];
    for (const c of cases) {
      const d = decodeClientMessage(JSON.stringify(c));
      assert.equal(d.ok, false, JSON.stringify(c));
      if (!d.ok) {
        assert.equal(d.error.code, 'invalid-message');
        assert.equal(d.error.ref, c.id);
        assert.equal(d.error.messageKey, 'errors.invalid-message');
      }
    }
  });

  it('refuses an oversized message before parsing it', () => {
    const big = JSON.stringify({ type: 'subscribe', id: 'a', view: 'table', pad: '字'.repeat(MAX_MESSAGE_BYTES) });
    const d = decodeClientMessage(big);
    assert.equal(!d.ok && d.error.code, 'oversized');
  });

  it('refuses binary frames', () => {
    const d = decodeClientMessage(new Uint8Array([1, 2, 3]));
    assert.equal(!d.ok && d.error.code, 'invalid-message');
  });
});

describe('host messages', () => {
  it('round-trips a station snapshot (its own part: the round comes apart, as a public part)', () => {
    const snap = {
      type: 'snapshot' as const,
      view: stationView(2),
      version: 7,
      state: {
        kind: 'station' as const,
        station: 2,
        seat: 2,
        game: 'blackjack' as const,
        currency: 'MOP' as const,
        limits: { min: 10000, max: 500000 },
        language: 'zh-Hant' as const,
        credit: 0,
        betting: { open: true, spots: [{ bet: 'main' as const, min: 10000, max: 500000 }], bets: [{ bet: 'main' as const, amount: 20000 }] },
        decision: null,
      },
    };
    const d = decodeHostMessage(encode(snap));
    assert.deepEqual(d, { ok: true, message: snap });
  });

  it('round-trips a public part and a remote station, and composes the view a screen draws', () => {
    const round = { type: 'public' as const, part: 'round' as const, version: 3, state: null };
    assert.deepEqual(decodeHostMessage(encode(round)), { ok: true, message: round });
    const own = {
      type: 'snapshot' as const,
      view: stationView(137),
      version: 1,
      state: {
        kind: 'station' as const,
        station: 137,
        game: 'baccarat' as const,
        currency: 'MOP' as const,
        limits: { min: 10000, max: 500000 },
        language: 'pt' as const,
        credit: 50000,
        betting: { open: false, spots: [], bets: [] },
        decision: null,
      },
    };
    const decoded = decodeHostMessage(encode(own));
    assert.ok(decoded.ok);
    const c = new ViewComposer(stationView(137));
    assert.equal(c.take(round), null, 'nothing to draw before the own part');
    const whole = c.take(decoded.message);
    assert.equal(whole?.version, 1);
    assert.deepEqual(whole?.state, { ...own.state, round: null });
    assert.equal(c.take({ ...round, version: 2 }), null, 'an older public part is ignored');
    assert.equal(decodeHostMessage(encode({ ...own, view: 'station/8' as never })).ok, false, 'station 8 is neither seated nor remote');
  });

  it('refuses a fractional credit: money is integer minor units', () => {
    const d = decodeHostMessage(
      JSON.stringify({
        type: 'snapshot',
        view: 'station/1',
        version: 1,
        state: {
          kind: 'station',
          station: 1,
          seat: 1,
          game: 'war',
          currency: 'HKD',
          limits: { min: 1, max: 2 },
          language: 'en',
          credit: 10.5,
          betting: { open: false, spots: [], bets: {} },
          decision: null,
          round: null,
        },
      }),
    );
    assert.equal(d.ok, false);
  });
});

describe('views and sizes', () => {
  it('parses station views and finds their number', () => {
    assert.equal(stationOf(ViewName.parse('station/7')), 7);
    assert.equal(stationOf('table'), null);
    assert.throws(() => stationView(0));
  });

  it('counts UTF-8 bytes like the wire does', () => {
    for (const s of ['', 'abc', 'é', '莊家', '🂡', 'MOP$1 234,50']) {
      assert.equal(utf8ByteLength(s), Buffer.byteLength(s, 'utf8'), s);
    }
  });
});
