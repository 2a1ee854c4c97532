// What the service-mode attack tests share: a real host over real WebSockets, its accounts set up
// as the command line sets them up, service screens that connect with the service screen's launch
// token and send what a hostile screen may send, the journal and /metrics as the host writes them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, type TableConfig } from '../../host/config/table-config.js';
import { AccountStore } from '../../host/service/accounts.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { realTimers, type Timers } from '../../host/table/timers.js';
import type { EntryBody } from '../../ledger/index.js';
import { decodeHostMessage, PROTOCOL_VERSION, type CommandBody, type ServiceState } from '../../protocol/index.js';

export const SUP = { name: 'Ana Lei', staff: '1001', pin: '482915', role: 'supervisor' } as const;
export const TECH = { name: 'Bo Chan', staff: '1002', pin: '739164', role: 'technician' } as const;
export const SUP2 = { name: 'Di Sousa', staff: '1003', pin: '305728', role: 'supervisor' } as const;
export const METRICS_TOKEN = 'metrics-token-for-the-security-tests-0123';

type Person = { name: string; staff: string; pin: string; role: 'supervisor' | 'technician' | 'auditor' };

/**
 * Real time, plus a skew the test can add: the host reads its clock through `timers.now()`, so a
 * lock of 15 minutes can be seen to hold at 14 and end at 16 without waiting for them. The
 * timeouts themselves stay real.
 */
export function skewedClock() {
  let skew = 0;
  const timers: Timers = { ...realTimers, now: () => Date.now() + skew };
  return { timers, advance: (ms: number) => (skew += ms), now: () => timers.now() };
}

/** A data folder with its accounts, added as `npm run service -- add-user` adds them before the first start. */
export async function folderWithAccounts(people: readonly Person[] = [SUP, TECH, SUP2]): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'service-attack-'));
  const store = new AccountStore(dir);
  try {
    const [first, ...rest] = people;
    assert.ok(first && first.role === 'supervisor');
    await store.add({ name: first.name, role: first.role, pin: first.pin, staff: first.staff }, null);
    for (const p of rest) await store.add({ name: p.name, role: p.role, pin: p.pin, staff: p.staff }, first);
  } finally {
    store.close();
  }
  return dir;
}

export async function startServiceHost(
  dir: string,
  timers: Timers = realTimers,
  config: TableConfig = simulatedTableConfig('blackjack'),
): Promise<RunningHost> {
  return startHost({
    dataDir: dir,
    rendererDir: path.join(dir, 'none'),
    logger: pino({ level: 'silent' }),
    config,
    // No dealer: nothing moves at the table but what service mode does.
    simulatedDealer: false,
    metricsToken: METRICS_TOKEN,
    timers,
  });
}

export async function stopServiceHost(running: RunningHost, dir: string): Promise<void> {
  await running.close();
  removeFolder(dir);
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

type Reply = { type: 'ack' } | { type: 'error'; code?: string; messageKey?: string };

/**
 * A service screen over WebSocket, as hostile as its protocol lets it be: it sends a command without
 * waiting for anything, and the test decides what to wait for (the reply, or an outcome).
 */
export async function serviceScreen(running: RunningHost) {
  const token = running.screens.urls.find((s) => s.view === 'service')?.token;
  assert.ok(token);
  const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`, { origin: running.origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let state: ServiceState | null = null;
  let version = 0;
  const replies = new Map<string, (r: Reply) => void>();
  const waiters: { test: (s: ServiceState) => boolean; resolve: (s: ServiceState) => void }[] = [];
  ws.on('message', (d) => {
    const m = decodeHostMessage(d.toString());
    assert.ok(m.ok, 'a host message fails its schema');
    const msg = m.message;
    if (msg.type === 'snapshot' && msg.state.kind === 'service') {
      state = msg.state;
      version = msg.version;
      for (const w of [...waiters])
        if (w.test(msg.state)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg.state);
        }
    } else if (msg.type === 'ack' && msg.ref) replies.get(msg.ref)?.({ type: 'ack' });
    else if (msg.type === 'error' && msg.ref) replies.get(msg.ref)?.({ type: 'error', code: msg.code, messageKey: msg.messageKey });
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'service' }));
  let n = 0;
  let sentVersion = 0;
  const until = (test: (s: ServiceState) => boolean, what: string, ms = 60_000): Promise<ServiceState> => {
    if (state && test(state)) return Promise.resolve(state);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; last state ${JSON.stringify(state)?.slice(0, 600)}`)), ms);
      waiters.push({ test, resolve: (s) => (clearTimeout(timer), resolve(s)) });
    });
  };
  await until(() => true, 'the first snapshot');
  /** Sends a command against the current version; resolves with the host's reply (ack or refusal). */
  const send = (command: CommandBody): Promise<Reply> => {
    const id = `c${++n}`;
    return new Promise<Reply>((resolve) => {
      replies.set(id, resolve);
      sentVersion = version;
      ws.send(JSON.stringify({ type: 'command', id, view: 'service', version, command }));
    });
  };
  /**
   * Sends; a command sent against a view that changed meanwhile (a tilt raised, a countdown) is
   * refused as stale before anything is checked, and the screen shows the new view and the person
   * presses again. So does this kit, at most three times, after the newer snapshot has arrived.
   */
  const press = async (command: CommandBody): Promise<Reply> => {
    let reply = await send(command);
    for (let tries = 0; reply.type === 'error' && reply.code === 'stale-version' && tries < 3; tries++) {
      const deadline = Date.now() + 5_000;
      while (version === sentVersion && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      reply = await send(command);
    }
    return reply;
  };
  /** Presses, and when the host took it, waits until it has finished with it (its outcome's notice). */
  const act = async (command: CommandBody, what: string): Promise<{ reply: Reply; state: ServiceState | null }> => {
    const before = state;
    const reply = await press(command);
    if (reply.type !== 'ack') return { reply, state };
    const s = await until((x) => x !== before && x.busy !== true && x.notice !== null, what);
    return { reply, state: s };
  };
  return {
    send,
    press,
    act,
    until,
    state: () => state,
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}

export type ServiceScreen = Awaited<ReturnType<typeof serviceScreen>>;

/** A two-person action on one pad: the supervisor asks on `screen`, `second` (the technician) confirms; the outcome's notice key. */
export async function twoPerson(
  screen: ServiceScreen,
  action: Parameters<ServiceScreen['send']>[0] & { name: 'service-action' },
  second: Pick<Person, 'staff' | 'pin'> = TECH,
): Promise<string | undefined> {
  const started = await screen.act(action, `${action.action.kind} asked`);
  assert.ok(started.state?.confirm, `${action.action.kind} waits for a second person (${JSON.stringify(started.state?.notice)})`);
  const done = await screen.act({ name: 'service-confirm', staff: second.staff, pin: second.pin }, `${action.action.kind} confirmed`);
  return done.state?.notice?.key;
}

/** Signs a screen in and checks that it is. */
export async function signIn(screen: ServiceScreen, who: Pick<Person, 'staff' | 'pin'>): Promise<ServiceState> {
  const r = await screen.act({ name: 'service-sign-in', staff: who.staff, pin: who.pin }, `sign-in of ${who.staff}`);
  assert.equal(r.reply.type, 'ack', `sign-in of ${who.staff} refused: ${JSON.stringify(r.reply)}`);
  assert.equal(r.state?.signedIn, true, `sign-in of ${who.staff}: ${JSON.stringify(r.state?.notice)}`);
  return r.state;
}

/**
 * Signs a screen out and waits until it is. Pressed like a person would (again if the view changed
 * under it): a sign-out refused as stale — the flood's burst tilt changes the view — was once waited
 * on for 60 s in a whole run.
 */
export async function signOut(screen: ServiceScreen): Promise<void> {
  const reply = await screen.press({ name: 'service-sign-out' });
  assert.equal(reply.type, 'ack', `sign-out refused: ${JSON.stringify(reply)}`);
  await screen.until((s) => !s.signedIn && s.busy !== true, 'signed out');
}

/** The payloads of the journal's entries of `type`, in order. */
export function journalled<T = Record<string, unknown>>(running: RunningHost, type: string): (T & { seq: number })[] {
  return [...running.ledger.entries(1)].filter((e) => e.type === type).map((e) => ({ seq: e.seq, ...((JSON.parse(e.body) as EntryBody).payload as T) }));
}

/** One series of the host's /metrics, or null when it is absent; `sum` adds every series of a name whose labels contain `match`. */
export async function metric(running: RunningHost, series: string): Promise<number | null> {
  const res = await fetch(`${running.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200);
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

/** The sum of every series of metric `name` whose labels include each of `labels` (e.g. `outcome="wrong"`). */
export async function metricSum(running: RunningHost, name: string, labels: readonly string[] = []): Promise<number | null> {
  const res = await fetch(`${running.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const lines = text.split('\n').filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && labels.every((x) => l.includes(x)));
  if (lines.length === 0) return null;
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
