// A screen asks for parts of its view whole (`resync`) when a patch did not follow what it held:
// an honest one (protocol/compose.ts) asks each part at most once a second. Before (a review), a
// resync was held only to the message rate every message has (40 at once, 20 a second), and each
// could name all four parts: a station's machine sending resyncs made the host write 80 whole
// parts a second to it, as long as it liked, for a 60-byte message each. Now the parts asked for
// whole have a budget of their own, past which the resync is refused (`rate-limited`) and counts
// as a protocol error, so a screen that keeps on is closed.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import pino from 'pino';
import { decodeHostMessage, PROTOCOL_VERSION, type HostMessage, type ViewName } from '../../protocol/index.js';
import { testTable } from '../testing/table-kit.js';
import { LaunchTokens } from './launch-tokens.js';
import { RESYNC_LIMITS, ScreenSession } from './screen-session.js';

const ALL = ['own', 'round', 'panel', 'recall'] as const;

function screen(table: ReturnType<typeof testTable>, view: ViewName, now: () => number) {
  const tokens = new LaunchTokens(table.hub.views());
  const sent: HostMessage[] = [];
  let closed: { code: number; reason: string } | null = null;
  const transport = {
    send: (text: string) => {
      const d = decodeHostMessage(text);
      assert.ok(d.ok, text);
      sent.push(d.message);
    },
    close: (code: number, reason: string) => void (closed = { code, reason }),
  };
  const s = new ScreenSession(table.hub, tokens, transport, pino({ level: 'silent' }), { now });
  s.receive(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: tokens.tokenFor(view) }));
  s.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
  const wholes = (from: number) => sent.slice(from).filter((m) => m.type === 'snapshot' || m.type === 'public' || m.type === 'recall').length;
  return { s, sent, wholes, closed: () => closed };
}

describe('the parts a screen asks for whole (resync)', () => {
  let table: ReturnType<typeof testTable> | null = null;
  afterEach(() => table?.close());

  it('a screen asking for every part whole again and again is served its budget, told, then closed', () => {
    table = testTable({ game: 'baccarat' });
    const clock = { t: 0 };
    const c = screen(table, 'station/3', () => clock.t);
    const n = c.sent.length;
    // 40 resyncs of all four parts in one instant: within the message rate every message has.
    for (let i = 0; i < 40; i++) c.s.receive(JSON.stringify({ type: 'resync', id: `r${i}`, view: 'station/3', parts: ALL }));
    const served = c.wholes(n);
    assert.ok(served <= RESYNC_LIMITS.burst, `${served} whole parts written for 40 resyncs (budget ${RESYNC_LIMITS.burst})`);
    assert.ok(
      c.sent.slice(n).some((m) => m.type === 'error' && m.code === 'rate-limited'),
      'the screen is told',
    );
    assert.equal(c.closed()?.code, 1008, 'a screen that keeps asking past its budget is closed');
  });

  it('an honest screen, asking each part once a second, is always served', () => {
    table = testTable({ game: 'baccarat' });
    const clock = { t: 0 };
    const c = screen(table, 'station/3', () => clock.t);
    for (let second = 0; second < 60; second++) {
      clock.t += 1000;
      for (const part of ALL) {
        const n = c.sent.length;
        c.s.receive(JSON.stringify({ type: 'resync', id: `r${second}${part}`, view: 'station/3', parts: [part] }));
        assert.equal(c.wholes(n), 1, `second ${second}: ${part} sent whole`);
      }
    }
    assert.equal(c.closed(), null);
  });

  it('a part named twice in one resync is asked for once', () => {
    table = testTable({ game: 'baccarat' });
    const clock = { t: 0 };
    const c = screen(table, 'station/3', () => clock.t);
    for (let i = 0; i < RESYNC_LIMITS.burst; i++) {
      const n = c.sent.length;
      c.s.receive(JSON.stringify({ type: 'resync', id: `r${i}`, view: 'station/3', parts: ['own', 'own'] }));
      assert.equal(c.wholes(n), 1, `resync ${i}`);
    }
    assert.equal(c.closed(), null);
  });
});
