// Issue 52 item 4: a screen that lost its WebGL context says so, and says what it drew again once
// the browser restored it, into the kiosk's one log (protocol 7's `report`). The attacks first: a
// screen that lies sends reports before its hello, with free text, unknown art, numbers out of
// range, and floods them; none of that reaches the log beyond its own budget.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { decodeHostMessage, PROTOCOL_VERSION, type HostMessage, type ViewName } from '../../protocol/index.js';
import { closeLogFile, createLogger, HOST_LOG } from '../logger.js';
import { testTable } from '../testing/table-kit.js';
import { LaunchTokens } from './launch-tokens.js';
import { ScreenSession } from './screen-session.js';

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
}

type Line = Record<string, unknown> & { msg: string; level: number };

function countedLog() {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
  return { lines, log };
}

const restored = {
  type: 'report',
  id: 'r',
  event: 'gpu-context-restored',
  redrawn: ['card-atlas', 'button-faces', 'felt'],
  failed: [],
  cachedLayers: 1,
  ms: 37,
};

describe('a screen reports its lost WebGL context to the host log (protocol 7)', () => {
  let table: ReturnType<typeof testTable>;
  let tokens: LaunchTokens;
  beforeEach(() => {
    table = testTable({ game: 'blackjack' });
    tokens = new LaunchTokens(table.hub.views());
  });
  afterEach(() => table.close());

  const open = (log: pino.Logger, now?: () => number) => {
    const t = new FakeTransport();
    return { t, s: new ScreenSession(table.hub, tokens, t, log, now ? { now } : {}) };
  };
  const greet = (view: ViewName, log: pino.Logger, now?: () => number) => {
    const c = open(log, now);
    c.s.receive(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: tokens.tokenFor(view) }));
    assert.equal(c.t.sent.at(-1)?.type, 'welcome');
    return c;
  };

  it('logs the loss as a warning and the restore with the art drawn again, the layers and the time, under the screen’s view', () => {
    const { lines, log } = countedLog();
    const { s, t } = greet('table', log);
    s.receive(JSON.stringify({ type: 'report', id: 'l', event: 'gpu-context-lost' }));
    s.receive(JSON.stringify(restored));
    const lost = lines.find((l) => l.msg.startsWith('screen lost its WebGL context'));
    const back = lines.find((l) => l.msg.startsWith('screen restored its WebGL context'));
    assert.equal(lost?.level, 40, 'a warning');
    assert.equal(lost?.view, 'table');
    assert.equal(back?.level, 30);
    assert.deepEqual(
      { view: back?.view, redrawn: back?.redrawn, failed: back?.failed, cachedLayers: back?.cachedLayers, ms: back?.ms },
      { view: 'table', redrawn: ['card-atlas', 'button-faces', 'felt'], failed: [], cachedLayers: 1, ms: 37 },
    );
    assert.ok(!t.sent.some((m) => m.type === 'error'), 'a report is not answered');
  });

  it('logs art that could not be drawn again as an error', () => {
    const { lines, log } = countedLog();
    const { s } = greet('station/2', log);
    s.receive(JSON.stringify({ ...restored, redrawn: ['card-atlas'], failed: ['button-faces'] }));
    const line = lines.find((l) => l.msg.startsWith('screen restored its WebGL context'));
    assert.equal(line?.level, 50);
    assert.deepEqual(line?.failed, ['button-faces']);
    assert.equal(line?.view, 'station/2');
  });

  it('refuses a report before hello, and one with free text, unknown art or numbers out of range; nothing of it is logged', () => {
    const { lines, log } = countedLog();
    const stranger = open(log);
    stranger.s.receive(JSON.stringify(restored));
    const first = stranger.t.sent.at(-1);
    assert.equal(first?.type === 'error' && first.code, 'hello-required');
    const { s, t } = greet('station/1', log);
    const lies: unknown[] = [
      { ...restored, note: 'GPU fine, ignore the dark screen' },
      { ...restored, redrawn: ['felt', 'anything a screen likes'] },
      { ...restored, redrawn: Array.from({ length: 50 }, () => 'felt') },
      { ...restored, ms: -1 },
      { ...restored, ms: 1e12 },
      { ...restored, cachedLayers: 0.5 },
      { type: 'report', id: 'x', event: 'gpu-context-lost', redrawn: ['felt'] },
      { type: 'report', id: 'x', event: 'gpu-on-fire' },
      { type: 'report', id: 'x', event: 'gpu-context-restored' },
    ];
    for (const lie of lies) {
      const before = t.sent.length;
      s.receive(JSON.stringify(lie));
      const m = t.sent.at(-1);
      assert.equal(t.sent.length, before + 1, JSON.stringify(lie));
      assert.equal(m?.type === 'error' && m.code, 'invalid-message', JSON.stringify(lie));
    }
    const said = lines.filter((l) => /WebGL|GPU fine|anything a screen likes/.test(JSON.stringify(l)));
    assert.deepEqual(said, []);
  });

  it('a screen reporting in a loop writes no more than its own log budget', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'screen-report-'));
    let now = 0;
    const logger = createLogger(dir, { console: null, clock: () => now, clientBudget: { burst: 20, perMinute: 10 } });
    try {
      const { s } = greet('station/3', logger, () => now);
      // Under the message rate: 20 a second for 10 s, so each is read and would cost a line.
      for (let i = 0; i < 200; i++) {
        now += 50;
        s.receive(JSON.stringify(i % 2 ? restored : { type: 'report', id: `l${i}`, event: 'gpu-context-lost' }));
      }
    } finally {
      await closeLogFile(logger.logFile);
    }
    const lines = readFileSync(path.join(dir, HOST_LOG), 'utf8')
      .split('\n')
      .filter((l) => l.includes('WebGL context'));
    rmSync(dir, { recursive: true, force: true });
    // The burst and 10 s of a minute's rate (10 a minute): about 22; the 200 would be 200.
    assert.ok(lines.length >= 20 && lines.length <= 24, `${lines.length} lines`);
  });
});
