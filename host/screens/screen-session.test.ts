import { PROTOCOL_VERSION } from '../../protocol/index.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { decodeHostMessage, MAX_MESSAGE_BYTES, type HostMessage, type ViewName } from '../../protocol/index.js';
import { LaunchTokens } from './launch-tokens.js';
import { MAX_PROTOCOL_ERRORS, ScreenSession } from './screen-session.js';
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
  const open = () => {
    const t = new FakeTransport();
    return { t, s: new ScreenSession(host, tokens, t, silent) };
  };
  const greet = (view: ViewName) => {
    const c = open();
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

  it('applies a command made against the current version, acks it and pushes the new snapshot', () => {
    const { t, s } = env.greet('station/3');
    const version = env.host.version('station/3');
    s.receive(JSON.stringify({ type: 'command', id: 'c1', view: 'station/3', version, command: { name: 'set-language', language: 'pt' } }));
    const snap = t.sent.at(-2);
    const ack = t.sent.at(-1);
    assert.equal(snap?.type, 'snapshot');
    assert.equal(snap?.type === 'snapshot' && snap.state.language, 'pt');
    assert.deepEqual(ack, { type: 'ack', ref: 'c1', view: 'station/3', version: version + 1 });
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
