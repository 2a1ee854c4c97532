// Entry of the table host when Electron runs it as a utility process. Main sends one
// MessagePort per screen window; each port gets a screen session exactly like a WebSocket does,
// with the same validation and launch tokens. Nothing here imports Electron: the utility
// process is plain Node with `process.parentPort`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ScreenPort, type HostReady } from '../protocol/index.js';
import { defaultDataDir } from './data-dir.js';
import { HOST_ARGS, hostOptionsFromArgs, type HostArgValues } from './launch-options.js';
import { lastResortFromStart } from './process-faults.js';
import { startHost } from './start-host.js';

/** The parts of Electron's MessagePortMain and ParentPort this file uses. */
interface PortMain {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  on(event: 'close', listener: () => void): void;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}
interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown; ports: PortMain[] }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) {
  console.error('host/utility-process.ts runs inside Electron; use `npm start` for the browser mode');
  process.exit(2);
}

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'renderer-dir': { type: 'string' }, port: { type: 'string' }, ...HOST_ARGS },
  strict: false,
});
const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir();
const rendererDir = typeof values['renderer-dir'] === 'string' ? values['renderer-dir'] : path.resolve('dist/renderer');

// A fixed port (the cabinet's session pings /healthz on it for the systemd watchdog); 0: a free one.
const port = typeof values.port === 'string' ? Number(values.port) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${String(values.port)}"`);
  process.exit(2);
}
// What nothing else caught ends the process, logged, and Electron's main process starts it again
// (electron/kiosk-host.ts): from before the start, and in host.log from the moment it opens.
const lastResort = lastResortFromStart();
const running = await startHost(
  { dataDir, rendererDir, port, ...hostOptionsFromArgs(values as HostArgValues) },
  { onLog: (log) => lastResort.logTo(log) },
).catch((e: unknown) => {
  // Its cause is in host.log (startHost's fatal line); here for whoever reads the process's stderr.
  lastResort.logTo(null);
  console.error('the table host could not start:', e);
  process.exit(1);
});
lastResort.logTo(running.log);
const ready: HostReady = {
  type: 'host-ready',
  origin: running.origin,
  tokens: running.screens.urls.map((s) => [s.view, s.token]),
};

parentPort.on('message', (e) => {
  const port = e.ports[0];
  if (!ScreenPort.safeParse(e.data).success || !port) {
    running.log.warn({ data: e.data }, 'unexpected message from the main process');
    return;
  }
  const session = running.screens.open({ send: (text) => port.postMessage(text), close: () => port.close() });
  port.on('message', (m) => session.receive(m.data));
  port.on('close', () => session.dispose());
  port.start();
});
parentPort.postMessage(ready);

process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
