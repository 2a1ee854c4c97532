import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { jsonTextAs } from '../../terms/json-text.js';
import { EdgeName } from './subjects.js';

/**
 * What the edge's listener admits at once (`ConnectionGuard`): 8 from one client address, as the
 * host's LAN listener (a station's machine holds one screen connection at an edge, a few while a
 * cut one is replaced), and 600 in all, which leaves room under the common `ulimit -n 1024`. An
 * edge holding more stations raises `total` with its open-files limit.
 */
export const EDGE_CAPS = { perAddress: 8, total: 600 } as const;

const EdgeCaps = z
  .strictObject({
    perAddress: z.number().int().min(1).max(4096).default(EDGE_CAPS.perAddress),
    total: z.number().int().min(1).max(4096).default(EDGE_CAPS.total),
  })
  .refine((c) => c.perAddress <= c.total, { message: 'perAddress may not be more than total' });

/**
 * An edge's configuration file (`etg edge --config FILE`): which edge it is, of which table, the
 * table's NATS server with this edge's own user (its password in a file of its own, owner-only,
 * as the table's host wrote it: `<host data>/edges/<name>.password`) and the server's certificate,
 * which it pins (`<host data>/edges/tls/table-cert.pem`: NATS speaks TLS only), where it listens for the
 * stations and how many connections it admits there (`listen.connections`), and its folder (its TLS certificate, made on its first start, under `tls/`). Paths
 * are taken from the file's own folder.
 */
export const EdgeConfig = z.strictObject({
  name: EdgeName,
  tableId: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  nats: z.strictObject({
    url: z.string().regex(/^nats:\/\/[^\s/]+$/),
    passwordFile: z.string().min(1).max(4096),
    /** The NATS server's certificate (a copy of the host's `<data>/edges/tls/table-cert.pem`): the edge trusts no other. */
    certificateFile: z.string().min(1).max(4096),
  }),
  listen: z
    .strictObject({
      host: z.string().min(1).max(255).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(0),
      connections: EdgeCaps.default(EDGE_CAPS),
    })
    .default({ host: '127.0.0.1', port: 0, connections: EDGE_CAPS }),
  dataDir: z.string().min(1).max(4096),
});
export type EdgeConfig = z.infer<typeof EdgeConfig>;

/**
 * The file parsed, its paths made absolute from its folder; or an error naming it, the field that
 * is wrong and what to do (before: JSON.parse's words, or zod's issues as raw JSON).
 */
export function readEdgeConfig(file: string): EdgeConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`edge configuration ${file} cannot be read (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const read = jsonTextAs(text, EdgeConfig, "an edge's configuration");
  if (!read.ok) throw new Error(`edge configuration ${file}: ${read.why}: docs/stadium.md, "Edges on NATS", says what it holds`);
  const c = read.data;
  const dir = path.dirname(path.resolve(file));
  return {
    ...c,
    nats: { ...c.nats, passwordFile: path.resolve(dir, c.nats.passwordFile), certificateFile: path.resolve(dir, c.nats.certificateFile) },
    dataDir: path.resolve(dir, c.dataDir),
  };
}
