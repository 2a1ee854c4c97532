import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { label, type AccountStore } from '../../host/service/accounts.js';
import { mayConfirm } from '../../host/service/roles.js';
import { PeerRegistry } from '../../host/peers/peer-registry.js';
import { readTableCertificate } from '../../host/stadium/table-certificate.js';
import { UsageError } from '../tool.js';
import { openAccounts } from './open-accounts.js';
import { secretReader } from './read-secret.js';

/** Both people of a peer credential's change on the command line, as service mode has them: a supervisor, then a second person who is not an auditor. */
async function twoPeople(store: AccountStore, read: (prompt: string) => Promise<string>, by: string, second: string): Promise<[string, string]> {
  if (by === second) throw new UsageError('--by and --second must be two different people');
  const first = await store.check(by, await read(`PIN of supervisor ${by}: `));
  if (!first.ok) throw new Error(`supervisor ${by} refused: ${first.reason}`);
  if (first.account.role !== 'supervisor') throw new Error(`${by} is not a supervisor`);
  const other = await store.check(second, await read(`PIN of the second person ${second}: `));
  if (!other.ok) throw new Error(`second person ${second} refused: ${other.reason}`);
  if (!mayConfirm(other.account.role)) throw new Error(`${second} is an auditor: an auditor does not confirm`);
  return [label(first.account), label(other.account)];
}

/**
 * The peer tables of a stopped host's data folder, changed by two people on the command line
 * (`etg service peer-file`, `peer-withdraw`): the folder locked (refused while a host runs), both
 * PINs checked as service mode checks them, the change journalled by the registry itself, as the
 * service screen's is. The table's id is the one its certificate names (made at its first start
 * with a LAN listener).
 */
export async function withPeerRegistry<T>(
  o: { dataDir: string; by: string; second: string; url?: string; what: string },
  act: (registry: PeerRegistry, by: [string, string]) => T,
): Promise<T> {
  if (!existsSync(o.dataDir)) throw new UsageError(`no data folder ${o.dataDir}`);
  const certificate = readTableCertificate(o.dataDir);
  if (!certificate) throw new Error('this folder has no table certificate yet: start the host once with its LAN listener (lan.port) and a peers.json');
  const self = /^CN=([A-Za-z0-9][A-Za-z0-9._-]{0,63})$/.exec(new X509Certificate(certificate.cert).subject)?.[1];
  if (!self) throw new Error('the table certificate names no table id');
  const { store, ledger, close } = openAccounts(o.dataDir, o.what);
  const secrets = secretReader();
  try {
    if (!ledger) throw new Error('this folder has no ledger yet: start the host once');
    const by = await twoPeople(store, (p) => secrets.read(p), o.by, o.second);
    const log = pino({ level: 'warn' }, pino.destination(2));
    const registry = new PeerRegistry({
      dataDir: o.dataDir,
      self,
      ledger,
      log,
      fault: (detail) => log.error({ detail }, 'peer files differ from the journal: the next start raises peer-integrity'),
      url: o.url ?? null,
    });
    return act(registry, by);
  } finally {
    secrets.close();
    close();
  }
}
