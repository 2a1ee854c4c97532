import type { Logger } from 'pino';
import { CrashBreaker, isCrash } from './crash-policy.js';
import type { AppLike, WebContentsLike } from './electron-api.js';

/**
 * Chromium's own processes (GPU, network, utility…): each exit is logged; Chromium starts a GPU
 * process again by itself, but one that keeps dying (a driver fault) leaves screens frozen or
 * black, so past the breaker's limit the app relaunches (and, past the relaunch policy, shows the
 * out-of-service page). The table host is a utility process too: its exit is handled where it is
 * started (main.ts), so here it is only logged.
 */
export function watchChildProcesses(app: AppLike, log: Logger, relaunch: (why: string) => void, now: () => number = Date.now): void {
  const breakers = new Map<string, CrashBreaker>();
  app.on('child-process-gone', (_e, details) => {
    const type = details.type ?? 'unknown';
    const line = { type, reason: details.reason, exitCode: details.exitCode, name: details.name, serviceName: details.serviceName };
    if (!isCrash(details.reason)) return log.info(line, 'child process exited');
    log.error(line, 'child process gone');
    if (type !== 'GPU') return;
    const breaker = breakers.get(type) ?? new CrashBreaker();
    breakers.set(type, breaker);
    if (breaker.onCrash(now()) === 'relaunch') relaunch('the GPU process keeps crashing');
  });
}

/**
 * One screen's renderer: a crash reloads it (its state lives in the host, so nothing is lost), a
 * renderer that keeps crashing relaunches the app, a hung one is crashed so that it reloads.
 */
export function watchScreen(contents: WebContentsLike, view: string, log: Logger, relaunch: (why: string) => void, now: () => number = Date.now): void {
  const breaker = new CrashBreaker();
  contents.on('render-process-gone', (_e, details) => {
    if (!isCrash(details.reason)) return;
    log.error({ view, reason: details.reason, exitCode: details.exitCode }, 'screen renderer gone');
    if (breaker.onCrash(now()) === 'relaunch') relaunch(`the ${view} screen keeps crashing`);
    else contents.reload();
  });
  contents.on('unresponsive', () => {
    log.warn({ view }, 'screen unresponsive: crashing its renderer to reload it');
    contents.forcefullyCrashRenderer();
  });
}
