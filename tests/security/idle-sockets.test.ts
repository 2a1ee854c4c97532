// Issue 28 item 6, "Screens that never say hello": 992 idle WebSocket connections (the host under
// `ulimit -n 1024`) were never closed, and /healthz and a real station's hello then failed; on the
// LAN TLS port 200 idle sockets were still open after 150 s. Here the host runs in a process of
// its own under `ulimit -n 1024`, and 1,000 sockets are opened to each of its listeners and never
// say a word: on the loopback listener 900 bare TCP connections and 100 WebSockets that never say
// hello; on the LAN listener the same, from 100 addresses (127.0.1.1–100), the WebSockets over
// TLS. Every one must be closed by the host within 20 s (its hello time is 5 s), while a local screen's hello, a remote
// station's hello-station (from its own address) and /healthz keep being answered.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import {
  assertEnoughFiles,
  healthz,
  idleTcp,
  idleWebSocket,
  localScreenHello,
  startListenerHost,
  stationHello,
  waitFor,
  type IdleSocket,
} from './connection-kit.js';

const PER_LISTENER = 1000;
const WEBSOCKETS = 100;
/**
 * Four times the hello's 5 s (HELLO_SECONDS): a socket's time counts from the test's connect, and a
 * loaded machine accepts 2,000 of them late (a CI run of 1 December at a load of 11: 165 closed
 * past 10 s, all by 12 s). Before the fix they were never closed (150 s and still open).
 */
const CLOSED_WITHIN_MS = 20_000;

describe('idle sockets (issue 28 item 6)', () => {
  it('1,000 idle sockets to each listener are closed within 20 s (the hello is 5 s); a screen, a remote station and /healthz are answered throughout', async (t) => {
    assertEnoughFiles(2 * PER_LISTENER + 200);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idle-sockets-'));
    const host = await startListenerHost(dir, 1024);
    const idle: { where: string; s: IdleSocket }[] = [];
    try {
      const local = new URL(host.origin);
      const lan = new URL(host.lan);
      // Everything is answered before the attack.
      assert.equal(await healthz(host.origin), 200);
      assert.equal(await localScreenHello(host), 'welcome');
      assert.equal(await stationHello(host, '127.0.0.2'), 'welcome');

      const started = performance.now();
      for (let i = 0; i < PER_LISTENER - WEBSOCKETS; i++) {
        idle.push({ where: 'local tcp', s: idleTcp(Number(local.port), local.hostname, '127.0.0.1') });
        idle.push({ where: 'lan tcp', s: idleTcp(Number(lan.port), lan.hostname, `127.0.1.${1 + (i % 100)}`) });
      }
      const agent = pinnedAgent(host.enrolment);
      for (let i = 0; i < WEBSOCKETS; i++) {
        idle.push({ where: 'local ws', s: idleWebSocket(`${host.origin.replace('http', 'ws')}/ws`, { origin: host.origin }) });
        idle.push({ where: 'lan wss', s: idleWebSocket(`${host.lan.replace('https', 'wss')}/ws`, { agent, localAddress: `127.0.1.${1 + (i % 100)}` }) });
      }

      // The real clients, one after another, for as long as the attack lasts.
      const answers: { at: number; what: string; answer: string | number }[] = [];
      let attacking = true;
      const probing = (async () => {
        while (attacking) {
          const at = Math.round(performance.now() - started);
          answers.push({ at, what: 'healthz', answer: await healthz(host.origin) });
          answers.push({ at, what: 'local screen', answer: await localScreenHello(host) });
          answers.push({ at, what: 'remote station', answer: await stationHello(host, '127.0.0.2') });
          await new Promise((r) => setTimeout(r, 200));
        }
      })();
      const allClosed = await waitFor(() => idle.every((x) => x.s.closedAt !== null), CLOSED_WITHIN_MS + 2000, 100);
      attacking = false;
      await probing;

      const open = idle.filter((x) => x.s.closedAt === null);
      const late = idle.filter((x) => x.s.closedAt !== null && x.s.closedAt - x.s.openedAt > CLOSED_WITHIN_MS);
      const count = (xs: typeof idle) => {
        const by = new Map<string, number>();
        for (const x of xs) by.set(x.where, (by.get(x.where) ?? 0) + 1);
        return [...by].map(([k, n]) => `${k}: ${n}`);
      };
      assert.ok(allClosed && open.length === 0, `still open after ${CLOSED_WITHIN_MS + 2000} ms: ${count(open).join(', ')}`);
      assert.deepEqual(count(late), [], `closed later than ${CLOSED_WITHIN_MS} ms after they opened`);
      const slowest = Math.max(...idle.map((x) => (x.s.closedAt ?? Infinity) - x.s.openedAt));
      const slowestProbe = Math.max(...answers.map((a, i) => (answers[i + 3]?.at ?? a.at) - a.at));
      t.diagnostic(
        `last idle socket closed ${Math.round(slowest)} ms after it opened; ${answers.length / 3} rounds of real clients, slowest ${slowestProbe} ms`,
      );
      const failed = answers.filter((a) => a.answer !== 200 && a.answer !== 'welcome');
      assert.deepEqual(failed, [], 'every real client answered during the attack');
      assert.ok(answers.length >= 3 * 5, `the real clients were tried throughout (${answers.length} tries)`);
      assert.equal(host.child.exitCode, null, 'the host is still running');
    } finally {
      for (const x of idle) x.s.destroy();
      await host.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
