import { PROTOCOL_VERSION } from '../../protocol/index.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { decodeHostMessage, MAX_MESSAGE_BYTES, type HostMessage, type ViewName } from '../../protocol/index.js';
import { LaunchTokens } from './launch-tokens.js';
import { RefusalLog } from './refusal-log.js';
import { INCOMING_LIMITS, MAX_PROTOCOL_ERRORS, ScreenSession, type ScreenSessionOptions } from './screen-session.js';
import type { ViewHub } from './view-hub.js';
import { testTable } from '../testing/table-kit.js';

class FakeTransport {
  readonly sent: HostMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  send(text: string) {
    const d = decodeHostMessage(text);
    assert.ok(d.ok, `host sent an invalid message: ${text}`);
    this.sent.push(d.message);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
  }
  last(): HostMessage {
    const m = this.sent.at(-1);
    assert.ok(m, 'nothing was sent');
    return m;
  }
}

const silent = pino({ level: 'silent' });

function setup() {
  const table = testTable({ game: 'blackjack' });
  const host: ViewHub = table.hub;
  const tokens = new LaunchTokens(host.views());
  const open = (options?: ScreenSessionOptions, log = silent) => {
    const t = new FakeTransport();
    return { t, s: new ScreenSession(host, tokens, t, log, options) };
  };
  const greet = (view: ViewName, options?: ScreenSessionOptions, log = silent) => {
    const c = open(options, log);
    c.s.receive(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: tokens.tokenFor(view) }));
    assert.equal(c.t.last().type, 'welcome');
    c.s.receive(JSON.stringify({ type: 'subscribe', id: 's', view }));
    assert.equal(c.t.last().type, 'snapshot');
    return c;
  };
  return { host, table, tokens, open, greet };
}

describe('screen session', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });
  afterEach(() => env.table.close());

  it('greets a screen whose token is valid and names the view it grants', () => {
    const { t, s } = env.open();
    s.receive(JSON.stringify({ type: 'hello', id: 'h1', protocol: PROTOCOL_VERSION, token: env.tokens.tokenFor('station/2') }));
    assert.deepEqual(t.last(), { type: 'welcome', ref: 'h1', protocol: PROTOCOL_VERSION, session: s.id, view: 'station/2' });
  });

  it('refuses an unknown token and closes the connection', () => {
    const { t, s } = env.open();
    s.receive(JSON.stringify({ type: 'hello', id: 'h1', protocol: PROTOCOL_VERSION, token: 'not-the-launch-token-at-all' }));
    const m = t.last();
    assert.equal(m.type === 'error' && m.code, 'unauthorized');
    assert.equal(t.closed?.code, 1008);
  });

  it('refuses another protocol version', () => {
    const { t, s } = env.open();
    s.receive(JSON.stringify({ type: 'hello', id: 'h1', protocol: 99, token: env.tokens.tokenFor('table') }));
    const m = t.last();
    assert.equal(m.type === 'error' && m.code, 'protocol-version');
  });

  it('requires hello before anything else', () => {
    const { t, s } = env.open();
    s.receive(JSON.stringify({ type: 'subscribe', id: 'x', view: 'table' }));
    const m = t.last();
    assert.equal(m.type === 'error' && m.code, 'hello-required');
    assert.equal(t.closed, null, 'one mistake does not close the connection');
  });

  it('never lets a station subscribe to another station or to the table', () => {
    const { t, s } = env.greet('station/1');
    for (const view of ['station/2', 'table', 'service']) {
      s.receive(JSON.stringify({ type: 'subscribe', id: 'x', view }));
      const m = t.last();
      assert.equal(m.type === 'error' && m.code, 'forbidden-view', view);
    }
    const snapshots = t.sent.filter((m) => m.type === 'snapshot');
    assert.equal(snapshots.length, 1);
    assert.equal(snapshots[0]?.type === 'snapshot' && snapshots[0].view, 'station/1');
  });

  it('applies a command made against the current version, acks it and pushes what changed as a patch to the version the screen holds', () => {
    const { t, s } = env.greet('station/3');
    const version = env.host.version('station/3');
    s.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'station/3', version, command: { name: 'set-language', language: 'pt' } }));
    const patch = t.sent.at(-2);
    const ack = t.sent.at(-1);
    assert.deepEqual(patch, { type: 'patch', view: 'station/3', version: version + 1, ops: [['set', ['language'], 'pt']] });
    assert.deepEqual(ack, { type: 'ack', ref: 'c1', view: 'station/3', version: version + 1 });
  });

  // A command the host could not handle (its journal refused the write: a full disk) is answered
  // `internal` naming the command: a screen says an `internal` with no ref for nothing (an edge's
  // "this part is on its way whole again", renderer/src/connection/error-kind.ts). Before (a review,
  // 8 December) the answer named none.
  it("answers a command whose handling throws `internal` with the command's ref", () => {
    const { t, s } = env.greet('station/3');
    env.host.commands.submit = () => {
      throw new Error('SQLITE_FULL: database or disk is full');
    };
    s.receive(JSON.stringify({ type: 'command', id: 'c9', view: 'station/3', version: env.host.version('station/3'), command: { name: 'clear-bets' } }));
    const m = t.last();
    assert.equal(m.type === 'error' && m.code, 'internal');
    assert.equal(m.type === 'error' && m.ref, 'c9');
  });

  it('keeps a screen in zh-Hans, and refuses a well-formed language that has no catalogue (issue 54)', () => {
    const { t, s } = env.greet('station/3');
    const version = env.host.version('station/3');
    s.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'station/3', version, command: { name: 'set-language', language: 'zh-Hans' } }));
    assert.deepEqual(t.sent.at(-2), { type: 'patch', view: 'station/3', version: version + 1, ops: [['set', ['language'], 'zh-Hans']] });
    s.receive(JSON.stringify({ type: 'command', id: 'c2', view: 'station/3', version: version + 1, command: { name: 'set-language', language: 'fr' } }));
    const refused = t.last();
    assert.equal(refused.type === 'error' && refused.code, 'rejected', 'the protocol takes the tag; the host has no words for it');
    assert.equal(env.host.version('station/3'), version + 1, 'the screen stays in zh-Hans');
  });

  it('sends the parts a screen asks for again whole (resync), then patches against them; only of its own view', () => {
    const { t, s } = env.greet('station/3');
    const n = t.sent.length;
    s.receive(JSON.stringify({ type: 'resync', id: 'r1', view: 'station/3', parts: ['round', 'own', 'round'] }));
    const again = t.sent.slice(n);
    assert.deepEqual(
      again.map((m) => m.type + (m.type === 'public' ? `:${m.part}` : '')),
      ['public:round', 'snapshot'],
      'each part once, whole',
    );
    const version = env.host.version('station/3');
    s.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'station/3', version, command: { name: 'set-language', language: 'en' } }));
    assert.equal(t.sent.at(-2)?.type, 'patch', 'then patches again');
    // Another view's parts are not its to ask for, and a table display's view has no public parts.
    s.receive(JSON.stringify({ type: 'resync', id: 'r2', view: 'station/2', parts: ['own'] }));
    const refused = t.last();
    assert.equal(refused.type === 'error' && refused.code, 'not-subscribed');
    const table = env.greet('table');
    const m = table.t.sent.length;
    table.s.receive(JSON.stringify({ type: 'resync', id: 'r3', view: 'table', parts: ['round', 'panel', 'own'] }));
    assert.deepEqual(
      table.t.sent.slice(m).map((x) => x.type),
      ['snapshot'],
    );
    // The recall (protocol 5) is asked for the same way: the station's own, whole, never pushed; a table display has none.
    const k = t.sent.length;
    s.receive(JSON.stringify({ type: 'resync', id: 'r5', view: 'station/3', parts: ['recall'] }));
    const recall = t.sent.slice(k);
    assert.deepEqual(
      recall.map((x) => x.type === 'recall' && x.view),
      ['station/3'],
    );
    const mt = table.t.sent.length;
    table.s.receive(JSON.stringify({ type: 'resync', id: 'r6', view: 'table', parts: ['recall'] }));
    assert.equal(table.t.sent.length, mt, 'nothing for a table display');
    // A resync names parts the protocol has, at most four.
    for (const parts of [['history'], ['own', 'own', 'own', 'own', 'own'], []]) {
      s.receive(JSON.stringify({ type: 'resync', id: 'r4', view: 'station/3', parts }));
      const last = t.last();
      assert.equal(last.type === 'error' && last.code, 'invalid-message', JSON.stringify(parts));
    }
  });

  it('refuses a stale command with the current version and changes nothing', () => {
    const { t, s } = env.greet('table');
    const v = env.host.version('table');
    s.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'table', version: v, command: { name: 'set-language', language: 'en' } }));
    s.receive(JSON.stringify({ type: 'command', id: 'c2', view: 'table', version: v, command: { name: 'set-language', language: 'pt' } }));
    const m = t.last();
    assert.equal(m.type, 'error');
    if (m.type === 'error') {
      assert.equal(m.code, 'stale-version');
      assert.equal(m.ref, 'c2');
      assert.equal(m.currentVersion, v + 1);
    }
    assert.equal(env.host.state('table').language, 'en');
  });

  it('pushes a change to every screen subscribed to that view and to no other', () => {
    const a = env.greet('station/1');
    const b = env.greet('station/2');
    const before = b.t.sent.length;
    a.s.receive(
      JSON.stringify({
        type: 'command',
        id: 'c',
        view: 'station/1',
        version: env.host.version('station/1'),
        command: { name: 'set-language', language: 'en' },
      }),
    );
    assert.equal(b.t.sent.length, before);
  });

  it('answers garbage with typed errors, never throws, and closes a connection that keeps at it', () => {
    const { t, s } = env.greet('table');
    const junk: unknown[] = ['{', 'null', '[]', '"x"', JSON.stringify({ type: 'command' }), new Uint8Array([0xff]), 'x'.repeat(MAX_MESSAGE_BYTES + 1)];
    for (const j of junk) assert.doesNotThrow(() => s.receive(j));
    const codes = t.sent.filter((m) => m.type === 'error').map((m) => (m.type === 'error' ? m.code : ''));
    assert.deepEqual(codes, ['invalid-json', 'invalid-message', 'invalid-message', 'invalid-message', 'invalid-message', 'invalid-message', 'oversized']);
    for (let i = junk.length; i < MAX_PROTOCOL_ERRORS; i++) s.receive('{');
    assert.equal(t.closed?.code, 1008);
  });
});

/** A logger whose lines are counted: pino writes each line to the stream synchronously. */
function countedLog() {
  const lines: { msg: string; code?: string; suppressed?: number; refused?: number }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, log };
}

describe('screen session: incoming rate limit', () => {
  let env: ReturnType<typeof setup>;
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    env = setup();
    now = 0;
  });
  afterEach(() => env.table.close());

  const bet = (view: ViewName, id: string) =>
    JSON.stringify({ type: 'command', id, view, version: env.host.version(view), command: { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 } });

  it('tells a flooding connection, then drops it; another screen keeps its view, nothing is journalled and the log stays short', () => {
    const { lines, log } = countedLog();
    const refusals = new RefusalLog(log, clock);
    const flood = env.greet('station/1', { now: clock, refusals }, log);
    const other = env.greet('station/2', { now: clock, refusals }, log);
    const head = env.table.ledger.headOf().seq;
    const before = flood.t.sent.length;

    // 10,000 bets in the same instant: no credit, so the ones let through are refused by the table.
    for (let i = 0; i < 10_000; i++) flood.s.receive(bet('station/1', `b${i}`));

    const errors = flood.t.sent.slice(before).flatMap((m) => (m.type === 'error' ? [m.code] : []));
    assert.equal(errors.filter((c) => c === 'rate-limited').length, 1, 'told once');
    const told = flood.t.sent.find((m) => m.type === 'error' && m.code === 'rate-limited');
    assert.equal(told?.type === 'error' && told.messageKey, 'errors.rate-limited');
    // hello and subscribe took two of the burst; the rest of it went to the table, then nothing.
    assert.equal(errors.filter((c) => c !== 'rate-limited').length, INCOMING_LIMITS.burst - 2);
    assert.deepEqual(flood.t.closed, { code: 1008, reason: 'rate limit' });
    assert.ok(flood.s.closed());
    assert.equal(env.table.ledger.headOf().seq, head, 'the flood journalled nothing');

    // The other station is served as before.
    assert.equal(other.t.closed, null);
    const o = other.t.sent.length;
    other.s.receive(
      JSON.stringify({
        type: 'command',
        id: 'lang',
        view: 'station/2',
        version: env.host.version('station/2'),
        command: { name: 'set-language', language: 'pt' },
      }),
    );
    const got = other.t.sent.slice(o);
    assert.equal(got.at(-2)?.type, 'patch');
    assert.equal(got.at(-1)?.type, 'ack');

    // A few lines, not one per message: connected ×2, the first of each refusal kind, the disconnect with its count.
    assert.ok(lines.length <= 6, `${lines.length} log lines: ${lines.map((l) => l.msg).join(', ')}`);
    const gone = lines.find((l) => l.msg === 'screen disconnected');
    // The table's refusals of the bets let through, and the ones over the limit until the drop.
    assert.equal(gone?.refused, INCOMING_LIMITS.burst - 2 + INCOMING_LIMITS.dropAfter + 1);
  });

  it('logs a long flood at most once a second per kind, with the count of those it did not log', () => {
    const { lines, log } = countedLog();
    const refusals = new RefusalLog(log, clock);
    // Generous drop thresholds, so the connection lives through 10 simulated seconds over its limit.
    const lenient = { ...INCOMING_LIMITS, dropAfter: Number.MAX_SAFE_INTEGER, refused: { burst: Number.MAX_SAFE_INTEGER, perSecond: 0 } };
    const flood = env.greet('station/1', { now: clock, refusals, incoming: lenient }, log);
    for (let i = 0; i < 10_000; i++) {
      now = i; // one message a millisecond: 1,000 a second for 10 s
      flood.s.receive(bet('station/1', `b${i}`));
    }
    const refused = lines.filter((l) => l.msg === 'screen message refused');
    assert.ok(refused.length <= 2 * 11, `${refused.length} refusal lines for 10,000 messages`);
    const counted = refused.reduce((n, l) => n + 1 + (l.suppressed ?? 0), 0);
    assert.ok(counted > 9_000, `the lines account for ${counted} refusals`);
    assert.equal(flood.t.closed?.code, undefined, 'the screen told to wait was not closed by the threshold it was given');
  });

  it('closes a screen that keeps sending stale or rejected commands under the rate limit; a few now and then are a race, not a reason', () => {
    const stale = (view: ViewName, id: string) =>
      JSON.stringify({ type: 'command', id, view, version: env.host.version(view) - 1, command: { name: 'clear-bets' } });
    const { refused } = INCOMING_LIMITS;
    const flood = env.greet('station/1', { now: clock });
    const person = env.greet('station/2', { now: clock });
    let closedAt: number | null = null;
    // 15 a second, under the rate limit: stale ones and rejected bets (no credit), one of each in turn.
    for (let i = 0; i < 15 * 60 && closedAt === null; i++) {
      now = Math.round((i * 1000) / 15);
      flood.s.receive(i % 2 ? stale('station/1', `s${i}`) : bet('station/1', `b${i}`));
      if (i % 15 === 0) person.s.receive(stale('station/2', `p${i}`));
      if (flood.t.closed) closedAt = now;
    }
    assert.equal(flood.t.closed?.code, 1008);
    assert.equal(flood.t.closed?.reason, 'too many refused commands');
    // The budget (burst, refilled at perSecond) runs out at 15 − perSecond a second.
    const expected = (refused.burst / (15 - refused.perSecond)) * 1000;
    assert.ok(closedAt !== null && Math.abs(closedAt - expected) < 1000, `closed at ${closedAt} ms, expected about ${expected}`);
    assert.equal(person.t.closed, null, 'one stale command a second is a person');
    // The service screen's pattern at a busy table: stale, then pressed again and acked.
    const again = env.greet('station/3', { now: clock });
    const lang = (id: string) =>
      JSON.stringify({ type: 'command', id, view: 'station/3', version: env.host.version('station/3'), command: { name: 'set-language', language: 'pt' } });
    for (let i = 0; i < 15 * 60; i++) {
      now = 60_000 + Math.round((i * 1000) / 15);
      again.s.receive(i % 2 ? lang(`l${i}`) : stale('station/3', `s${i}`));
    }
    assert.equal(again.t.closed, null, 'a stale command followed by an acked one, over and over, is never closed');
    assert.ok(
      person.t.sent.some((m) => m.type === 'error' && m.code === 'stale-version'),
      'and each was refused as stale',
    );
  });

  it('puts no limit on a session opened without one (in-process simulated players)', () => {
    const s = env.greet('station/1', { now: clock, incoming: null });
    for (let i = 0; i < 5000; i++) s.s.receive(JSON.stringify({ type: 'subscribe', id: `s${i}`, view: 'station/1' }));
    assert.equal(
      s.t.sent.some((m) => m.type === 'error'),
      false,
    );
    assert.equal(s.t.closed, null);
  });

  it('never limits a screen tapping a few times a second, nor one that was told and waited', () => {
    const s = env.greet('station/1', { now: clock });
    // Five taps a second for ten minutes.
    for (let i = 0; i < 3000; i++) {
      now = i * 200;
      s.s.receive(JSON.stringify({ type: 'subscribe', id: `s${i}`, view: 'station/1' }));
    }
    assert.equal(
      s.t.sent.some((m) => m.type === 'error'),
      false,
    );
    // A burst past the limit, then a pause: told once, not closed, and served again afterwards.
    for (let i = 0; i < INCOMING_LIMITS.burst + 5; i++) s.s.receive(JSON.stringify({ type: 'subscribe', id: `x${i}`, view: 'station/1' }));
    assert.equal(s.t.sent.filter((m) => m.type === 'error' && m.code === 'rate-limited').length, 1);
    now += 1000;
    s.s.receive(JSON.stringify({ type: 'subscribe', id: 'again', view: 'station/2' }));
    const last = s.t.last();
    assert.equal(last.type === 'error' && last.code, 'forbidden-view', 'read and answered again');
    assert.equal(s.t.closed, null);
  });
});
