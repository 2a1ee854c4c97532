// Issue 28 item 6, "a per-client log budget": a flooding client wrote 83–196 KB/s of log lines
// and rotated all 120 MB of logs away in about ten minutes, the faults and the other screens'
// lines with them. Here one client floods for 3 s in the ways that each cost the host a log line:
// WebSockets that say hello with a wrong launch token (over and over), requests naming a foreign
// host, service exports with a guessed token. The host logs as in production (host/logger.ts),
// its cap scaled down as the flood is (120 MB in ten minutes; here 32 KiB, a 16 KiB file and one
// rotated, in 3 s). Lines of other clients, one from before the flood and one during it, must
// survive; the flooder's lines over its budget are dropped and counted in a summary line.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { createLogger, HOST_LOG } from '../../host/logger.js';
import { startHost } from '../../host/start-host.js';
import { PROTOCOL_VERSION, type ViewName } from '../../protocol/index.js';
import { helloAnswer } from './connection-kit.js';

const FLOOD_MS = 3000;
const ROTATION = { maxBytes: 16 * 1024, keep: 1 };
/** Requests on kept-alive connections, as a flooding script would send them. */
const KEEP_ALIVE = new http.Agent({ keepAlive: true, maxSockets: 8 });

function logLines(dir: string): { msg?: string; client?: string; view?: string; dropped?: unknown }[] {
  return [HOST_LOG, `${HOST_LOG}.1`]
    .map((f) => path.join(dir, f))
    .filter((f) => existsSync(f))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { msg?: string });
}

function request(origin: string, pathname: string, hostHeader: string): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(pathname, origin);
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search, agent: KEEP_ALIVE, headers: { host: hostHeader } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', () => resolve());
  });
}

describe('log flood (issue 28 item 6)', () => {
  it("one client flooding cannot rotate the log away: other clients' lines survive, the flooder's dropped lines are summed up", async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-flood-'));
    const logDir = path.join(dir, 'test-logs');
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'none'),
      logger: createLogger(logDir, { rotation: ROTATION, console: null, clientBudget: { summaryMs: 500 } }),
      config: simulatedTableConfig('blackjack'),
      simulatedDealer: false,
    });
    try {
      const token = (view: ViewName) => running.screens.urls.find((x) => x.view === view)?.token ?? '';
      const hello = (view: ViewName) =>
        helloAnswer(
          `${running.origin.replace('http', 'ws')}/ws`,
          { type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: token(view) },
          { origin: running.origin },
        );
      // Another client's line before the flood.
      assert.equal(await hello('station/2'), 'welcome');

      const until = performance.now() + FLOOD_MS;
      const ws = `${running.origin.replace('http', 'ws')}/ws`;
      const host = new URL(running.origin).host;
      let rounds = 0;
      const flood = async (one: () => Promise<unknown>) => {
        while (performance.now() < until) {
          await one();
          rounds++;
        }
      };
      const flooding = Promise.all([
        ...Array.from({ length: 4 }, () =>
          flood(() => helloAnswer(ws, { type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: 'x'.repeat(32) }, { origin: running.origin })),
        ),
        ...Array.from({ length: 4 }, () => flood(() => request(running.origin, '/healthz', 'attacker.example:80'))),
        ...Array.from({ length: 4 }, () => flood(() => request(running.origin, `/service/export/meters.csv?t=${'g'.repeat(32)}`, host))),
      ]);
      // Another client's line during the flood.
      await new Promise((r) => setTimeout(r, FLOOD_MS / 2));
      assert.equal(await hello('station/3'), 'welcome');
      await flooding;
      await new Promise((r) => setTimeout(r, 1200));
      running.log.flush();

      const lines = logLines(logDir);
      const bytes = [HOST_LOG, `${HOST_LOG}.1`]
        .map((f) => path.join(logDir, f))
        .filter((f) => existsSync(f))
        .reduce((n, f) => n + statSync(f).size, 0);
      const summaries = lines.filter((l) => l.msg === 'log lines dropped over their client budget');
      const dropped = summaries.reduce((n, l) => n + Number(l.dropped ?? 0), 0);
      t.diagnostic(
        `${rounds} flood requests and connections in ${FLOOD_MS} ms; log ${bytes} bytes in ${lines.length} lines; ${dropped} lines dropped, summed up in ${summaries.length}`,
      );
      const connected = (view: string) => lines.some((l) => l.msg === 'screen connected' && l.view === view);
      assert.ok(rounds > 300, `the flood ran (${rounds} requests and connections)`);
      assert.ok(connected('station/2'), 'the line of another client from before the flood survives');
      assert.ok(connected('station/3'), 'the line of another client during the flood survives');
      assert.ok(dropped > 0, 'a summary line says what was dropped');
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
