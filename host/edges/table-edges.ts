import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ViewHub } from '../screens/view-hub.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { EdgeBridge } from './edge-bridge.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { natsCertificate, natsTls, type NatsPin } from './nats-tls.js';
import { edgePermissions } from './subjects.js';

/** The NATS users' passwords, made once and kept in the host's data folder (owner-only). */
const Passwords = z.record(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/), z.string().min(32).max(128));

const make = () => randomBytes(24).toString('base64url');

/**
 * The NATS users' passwords in `<edgesDir>/users.json` (the host's and one per edge named), each
 * made the first time its user is missing, and each edge's written to `<edgesDir>/<edge>.password`.
 * An operator rotates an edge's password by deleting its line (docs/security.md, *Edges on NATS*).
 * Each file is written only when its content changes, and replaced whole (writeWhole): a power cut
 * leaves the old file or the new one. A users.json that cannot be read stops the start, naming it:
 * made anew, every edge's password would change behind its machine's back.
 */
export function edgePasswords(dir: string, names: readonly string[]): Map<string, string> {
  // The host's own user has every right: an edge of that name would be handed its password.
  if (names.includes('host')) throw new Error(`edges: an edge may not be named 'host' (the table host's own NATS user)`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'users.json');
  const kept = existsSync(file) ? readPasswords(file) : {};
  const passwords = { ...kept };
  passwords['host'] ??= make();
  for (const name of names) passwords[name] ??= make();
  const text = JSON.stringify(passwords, null, 1);
  if (!existsSync(file) || text !== JSON.stringify(kept, null, 1)) writeWhole(file, text);
  for (const name of names) {
    const edge = path.join(dir, `${name}.password`);
    const line = `${passwords[name]}\n`;
    if (!existsSync(edge) || readFileSync(edge, 'utf8') !== line) writeWhole(edge, line);
  }
  return new Map(Object.entries(passwords));
}

/** users.json as kept, or an error naming it and what to do (it is never made anew by itself). */
function readPasswords(file: string): z.infer<typeof Passwords> {
  let why: string;
  try {
    const text = readFileSync(file, 'utf8');
    if (text.trim() === '') why = 'it is empty';
    else {
      const parsed = Passwords.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      why = 'it is not a list of NATS users and passwords';
    }
  } catch (e) {
    why = e instanceof SyntaxError ? `it is cut short or not JSON (${e.message})` : `it cannot be read (${e instanceof Error ? e.message : String(e)})`;
  }
  throw new Error(
    `edges: ${file} cannot be used: ${why}. Restore it from a backup of the data folder; or delete it, and the next start makes new passwords for the host and every edge (each edge's <edge>.password in ${path.dirname(file)} must then be carried to its machine again)`,
  );
}

/** Written to a temporary file, flushed, and renamed into place, owner-only. */
function writeWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flush: true });
  renameSync(tmp, file);
}

export interface TableEdges {
  readonly nats: NatsServer;
  /** The NATS server's certificate, which the host and every edge pin (`<data>/edges/tls/table-cert.pem`). */
  readonly certificate: NatsPin;
  readonly bridge: EdgeBridge;
  close(): Promise<void>;
}

/**
 * A table configured with edges (`edges` in its configuration, issue 55): its own NATS server
 * (Debian's nats-server, JetStream) with a user for the host and one per edge named, each edge
 * with `edgePermissions` (its own commands, its own stations' parts), and the host's bridge. The
 * passwords are made on the first start and kept in `<data>/edges/`: `users.json` for the server,
 * and `<edge>.password` for each edge, to be carried to that edge's machine (its configuration's
 * `nats.passwordFile`). The server speaks TLS only, with a certificate made on the first start in
 * `<data>/edges/tls/` (its key owner-only), which the host and every edge pin (the edge's
 * `nats.certificateFile`): the passwords and the stations' parts never cross the LAN in clear.
 * A table without edges never comes here and never needs NATS.
 */
export async function startTableEdges(
  dataDir: string,
  edges: { names: readonly string[]; host: string; port: number },
  deps: { tableId: string; hub: ViewHub; stations: RemoteStations; log: Logger },
): Promise<TableEdges> {
  const dir = path.join(dataDir, 'edges');
  const passwords = edgePasswords(dir, edges.names);
  const host = passwords.get('host') ?? make();
  const certificate = await natsCertificate(dir, [edges.host]);
  const nats = await startNatsServer({
    dir: path.join(dir, 'nats'),
    host: edges.host,
    tls: { certFile: certificate.certFile, keyFile: certificate.keyFile },
    ...(edges.port > 0 ? { port: edges.port } : {}),
    users: [
      { user: 'host', password: host },
      ...edges.names.map((e) => ({ user: e, password: passwords.get(e) ?? make(), ...edgePermissions(deps.tableId, e) })),
    ],
  });
  let nc: NatsConnection | null = null;
  try {
    // Loaded here, when a table with edges connects, not with every module that reaches this one
    // (every host's start, ~85 test files): ~0.05 s of CPU a start (docs/testing.md, 8 December).
    // Still a runtime package of the host (HOST_RUNTIME_PACKAGES).
    const { connect } = await import('nats');
    nc = await connect({
      servers: nats.url,
      user: 'host',
      pass: host,
      tls: natsTls(certificate),
      name: 'table host',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    const bridge = await EdgeBridge.start({ hub: deps.hub, stations: deps.stations, nc, tableId: deps.tableId, log: deps.log });
    const conn = nc;
    deps.log.info({ nats: nats.url, edges: edges.names }, 'edges: NATS started and the bridge open');
    return {
      nats,
      certificate: { cert: certificate.cert, fingerprint: certificate.fingerprint },
      bridge,
      close: async () => {
        await bridge.close();
        await conn.close();
        await nats.close();
      },
    };
  } catch (err) {
    await nc?.close();
    await nats.close();
    throw err;
  }
}
