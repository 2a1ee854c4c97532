import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The port the host served on, kept in the data dir. Asked for any free port (`--port 0`) after an
 * unclean stop, the host tries the previous one first, so the screens of the killed run (browser
 * windows on `http://127.0.0.1:<port>`) find it again; a clean start takes any free port.
 */
export async function listenRemembering<T extends { port: number }>(
  dataDir: string,
  port: number,
  reuse: boolean,
  listen: (port: number) => Promise<T>,
): Promise<T> {
  const file = path.join(dataDir, 'host-port');
  let server: T | null = null;
  if (port === 0 && reuse && existsSync(file)) {
    const previous = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(previous) && previous > 0 && previous < 65536) server = await listen(previous).catch(() => null);
  }
  server ??= await listen(port);
  writeFileSync(file, `${server.port}\n`);
  return server;
}
