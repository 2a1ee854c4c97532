// What the connection attack tests share: a table host in a child process under a low file
// descriptor limit, idle sockets that never say a word, and the real clients that must keep
// being served meanwhile (a local screen's hello, a remote station's hello-station, /healthz).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { openFilesLimit } from '../../host/open-files.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

export interface ListenerHost {
  child: ChildProcess;
  origin: string;
  lan: string;
  tableToken: string;
  enrolment: EnrolmentFile;
  stop(): Promise<void>;
}

/** Starts tests/security/listener-host-child.ts under `ulimit -n <files>` on `dataDir`. */
export async function startListenerHost(dataDir: string, files: number): Promise<ListenerHost> {
  const script = path.join(import.meta.dirname, 'listener-host-child.ts');
  const child = spawn('sh', ['-c', `ulimit -n ${files} && exec "$0" --import tsx "$1"`, process.execPath, script], {
    env: { ...process.env, LISTENER_HOST: JSON.stringify({ dataDir }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the host child did not start: ${err.slice(-2000)}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    child.once('exit', (code) => reject(new Error(`the host child exited ${code}: ${err.slice(-2000)}`)));
  });
  const ready = JSON.parse(line) as Omit<ListenerHost, 'child' | 'stop'>;
  return {
    ...ready,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** A socket that is opened and never says a word; `closedAt` once the other side closes it. */
export interface IdleSocket {
  readonly openedAt: number;
  closedAt: number | null;
  destroy(): void;
}

export function idleTcp(port: number, host: string, localAddress: string): IdleSocket {
  const s = net.connect({ port, host, localAddress });
  const idle: IdleSocket = { openedAt: performance.now(), closedAt: null, destroy: () => s.destroy() };
  s.on('error', () => undefined);
  s.on('close', () => (idle.closedAt ??= performance.now()));
  return idle;
}

/** A WebSocket that completes its upgrade (TLS first on the LAN) and then never says hello. */
export function idleWebSocket(url: string, options: WebSocket.ClientOptions): IdleSocket {
  const ws = new WebSocket(url, { ...options, perMessageDeflate: false });
  const idle: IdleSocket = { openedAt: performance.now(), closedAt: null, destroy: () => ws.terminate() };
  ws.on('error', () => undefined);
  ws.on('close', () => (idle.closedAt ??= performance.now()));
  return idle;
}

/** `/healthz` on a connection of its own; its status, or the error. */
export function healthz(origin: string, timeoutMs = 5000): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get(`${origin}/healthz`, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => resolve(e.message));
  });
}

/** Connects, sends `hello`, and resolves with the first message's type (`welcome` for a real screen), or the failure. */
export function helloAnswer(url: string, hello: object, options: WebSocket.ClientOptions, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { ...options, perMessageDeflate: false });
    const done = (what: string) => {
      clearTimeout(timer);
      ws.terminate();
      resolve(what);
    };
    const timer = setTimeout(() => done('timed out'), timeoutMs);
    ws.on('open', () => ws.send(JSON.stringify(hello)));
    ws.on('message', (d: Buffer) => done(String((JSON.parse(d.toString()) as { type?: unknown }).type)));
    ws.on('error', (e) => done(`error: ${e.message}`));
    ws.on('close', (code) => done(`closed ${code}`));
  });
}

/** A local window's hello (the table display's launch token) on the loopback listener. */
export function localScreenHello(host: ListenerHost): Promise<string> {
  return helloAnswer(
    `${host.origin.replace('http', 'ws')}/ws`,
    { type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: host.tableToken },
    { origin: host.origin },
  );
}

/** A remote station's hello-station on the LAN listener, from `localAddress` (its own machine). */
export function stationHello(host: ListenerHost, localAddress: string): Promise<string> {
  const e = host.enrolment;
  return helloAnswer(
    `${host.lan.replace('https', 'wss')}/ws`,
    { type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: e.station, secret: e.secret },
    { agent: pinnedAgent(e), localAddress },
  );
}

/** Waits until `test` holds, polling every `everyMs`, for at most `ms`; whether it held. */
export async function waitFor(test: () => boolean, ms: number, everyMs = 50): Promise<boolean> {
  const until = performance.now() + ms;
  while (!test()) {
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return true;
}

export function assertEnoughFiles(needed: number): void {
  const limit = openFilesLimit();
  assert.ok(limit === null || limit >= needed, `this test opens ${needed} sockets: run it with ulimit -n ${needed} or more (now ${limit})`);
}
