// A screen's launch token is in its URL (`/station/1?token=…`): no request the host refuses or
// answers may put it in host.log, nor may the simulated devices' token or a service PIN.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createLogger } from '../../host/logger.js';
import { startHost, type RunningHost } from '../../host/start-host.js';

function request(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end(o.body);
  });
}

describe('secrets never reach host.log', () => {
  let running: RunningHost;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'log-secrets-'));
    const logger = createLogger(path.join(dir, 'logs'), { console: null, level: 'debug' });
    running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'no-renderer'), logger, simControls: true });
  });
  after(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs the refused foreign-host request, a bad WebSocket origin and a bad sim token without any token', async () => {
    const station = running.screens.urls.find((s) => s.view === 'station/1');
    assert.ok(station);
    const url = new URL(station.url);
    // DNS rebinding: the screen's own URL, token and all, asked for under a foreign host name.
    assert.equal(await request(station.url, { headers: { Host: 'evil.example' } }), 421);
    assert.equal(await request(`${running.origin}/service/export/meters.csv?t=${station.token}&lang=pt`, { headers: { Host: 'evil.example' } }), 421);
    assert.equal(await request(`${running.origin}/nowhere?token=${station.token}`), 404);
    assert.equal(
      await request(`${running.origin}/sim/insert-note?token=${station.token}`, {
        method: 'POST',
        headers: { 'x-sim-token': 'not-it', 'content-type': 'application/json' },
        body: '{"station":1,"note":100}',
      }),
      401,
    );
    // A malformed body makes Fastify log the request as an error: its URL carries the token.
    assert.equal(
      await request(`${running.origin}/sim/insert-note?token=${station.token}`, {
        method: 'POST',
        headers: { 'x-sim-token': running.simToken ?? '', 'content-type': 'application/json' },
        body: '{not json',
      }),
      400,
    );
    const ws = new WebSocket(`ws://${url.host}/ws?token=${station.token}`, { origin: 'http://evil.example' });
    await new Promise<void>((resolve) => ws.on('close', () => resolve()));
    running.log.info({ screens: running.screens }, 'screens (a careless line)');
    running.log.info(`opened ${station.url}`);
    running.log.flush();

    const text = readFileSync(path.join(dir, 'logs', 'host.log'), 'utf8');
    assert.match(text, /request for a foreign host refused/, 'the refusal itself is logged');
    assert.match(text, /websocket from a foreign origin refused/);
    assert.match(text, /"path":"\/station\/1"/, 'with the path that was asked for');
    for (const s of running.screens.urls)
      assert.ok(
        !text.includes(s.token),
        `the ${s.view} launch token reached host.log:\n${text
          .split('\n')
          .filter((l) => l.includes(s.token))
          .join('\n')}`,
      );
    assert.ok(running.simToken && !text.includes(running.simToken), 'the sim token reached host.log');
    for (const line of text.split('\n').filter(Boolean)) {
      const time = (JSON.parse(line) as { time: unknown }).time;
      assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });
});
