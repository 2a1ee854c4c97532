// The kiosk session's watchdog pings (deploy/x11/kiosk-watchdog), run by sh on a simulated clock:
// `sleep` adds to the clock, `curl` answers /healthz while the simulated host is up, and
// `systemd-notify` writes down when it was pinged. systemd kills the session when 90 s pass without
// a ping (WatchdogSec=90): a start longer than 30 s used to be killed that way at every try.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(root, 'deploy/x11/kiosk-watchdog');
const WATCHDOG_SEC = 90;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the watchdog with the host answering /healthz from `up` s to `down` s of the clock. */
function run(host: { up: number; down: number }, budget?: number): { pings: number[]; code: number | null; stderr: string; end: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-watchdog-'));
  dirs.push(dir);
  const clock = path.join(dir, 'clock');
  const pings = path.join(dir, 'pings');
  writeFileSync(clock, '0');
  writeFileSync(pings, '');
  const tool = (name: string, body: string) => {
    writeFileSync(path.join(dir, name), `#!/bin/sh\nnow=$(cat "${clock}")\n${body}\n`);
    chmodSync(path.join(dir, name), 0o755);
  };
  tool('sleep', `echo $((now + $1)) > "${clock}"`);
  tool('curl', `[ "$now" -ge ${host.up} ] && [ "$now" -lt ${host.down} ] && exit 0; exit 7`);
  tool('systemd-notify', `[ "$1" = WATCHDOG=1 ] && echo "$now" >> "${pings}"`);
  const env = { ...process.env, PATH: `${dir}:${process.env['PATH'] ?? ''}`, ...(budget === undefined ? {} : { ETG_START_BUDGET: String(budget) }) };
  // A run of the 600 s budget is some 500 short processes (the fake clock's tools): 30 s was not
  // enough on a loaded machine (a whole-suite run, 1 December). The bound only stops a script that
  // never ends; what is asserted is the fake clock's.
  const r = spawnSync('sh', [script, '8800'], { env, encoding: 'utf8', timeout: 120_000 });
  const times = readFileSync(pings, 'utf8').split('\n').filter(Boolean).map(Number);
  return { pings: times, code: r.status, stderr: r.stderr, end: Number(readFileSync(clock, 'utf8')) };
}

/** The longest the session went without a ping, from its start to `until`. */
function longestGap(pings: readonly number[], until: number): number {
  let last = 0;
  let gap = 0;
  for (const t of [...pings, until]) {
    gap = Math.max(gap, t - last);
    last = t;
  }
  return gap;
}

describe('the kiosk session pings the watchdog', () => {
  it('through a start of 75 s (a long journal, the witness waited for): no 90 s without a ping, then every 20 s while the host answers', () => {
    const r = run({ up: 75, down: 400 });
    assert.ok(r.pings.length > 0);
    assert.ok(longestGap(r.pings, 400) < WATCHDOG_SEC, `longest gap ${longestGap(r.pings, 400)} s: ${r.pings.join(' ')}`);
    assert.ok(r.pings.filter((t) => t < 75).length >= 75 / 5 - 1, `pinged every 5 s while it started: ${r.pings.join(' ')}`);
    assert.ok(r.pings.filter((t) => t >= 75).every((t, i, a) => i === 0 || t - (a[i - 1] ?? 0) === 20));
    assert.match(r.stderr, /stopped answering/);
  });

  it('a host that stops answering gets no more pings: systemd restarts the session 90 s later', () => {
    const r = run({ up: 0, down: 200 });
    const last = r.pings.at(-1) ?? 0;
    assert.ok(last < 200, `the last ping at ${last} s, before the host stopped`);
    assert.equal(r.end - last, 20, 'it stopped at the first /healthz unanswered');
  });

  it('a start that never answers is pinged for its budget only (600 s, or ETG_START_BUDGET), then let go', () => {
    const never = { up: 1e9, down: 1e9 };
    const r = run(never);
    assert.equal(r.code, 1);
    assert.equal(r.pings.at(-1), 595);
    assert.match(r.stderr, /did not answer \/healthz within 600 s/);
    const short = run(never, 30);
    assert.deepEqual(short.pings, [0, 5, 10, 15, 20, 25]);
  });

  it('the session runs it with its port, only under a watchdog', () => {
    const session = readFileSync(path.join(root, 'deploy/x11/kiosk-session'), 'utf8');
    assert.match(session, /if \[ -n "\$\{WATCHDOG_USEC:-\}" \]; then\n\s+"\$\(dirname "\$0"\)\/kiosk-watchdog" "\$PORT" &\nfi/);
  });
});
