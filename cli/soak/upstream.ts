import { mkdirSync, writeFileSync } from 'node:fs';
import { credentialsFile } from '../../ledger/index.js';
import type * as Upstream from '../../upstream/index.js';

// Defined as true in the cabinet's bundles (deploy/build.ts, host/config/build-kind.ts).
declare const ETG_PRODUCTION_BUILD: boolean | undefined;
const UPSTREAM_MODULE = '../../upstream/index.js';

/**
 * The soak's validation authority (`etg soak --tickets`, docs/tito.md): an upstream on an
 * in-memory PGlite in the soak's own process, the table enrolled on it and its credentials written
 * into the data folder, so that the host child syncs its journal there and asks it about every
 * ticket its players insert (without one every ticket would go back `offline`).
 */
export async function soakUpstream(
  dataDir: string,
  terminalId: string,
): Promise<{ url: string; alarms: () => Promise<Record<string, number>>; close: () => Promise<void> }> {
  // The cabinet's etg holds no upstream (deploy/deploy.test.ts): the soak's own authority runs from
  // the sources only. The module is named by a variable so that the bundler does not pull it in.
  if (typeof ETG_PRODUCTION_BUILD !== 'undefined' && ETG_PRODUCTION_BUILD)
    throw new Error('etg soak --tickets runs its own validation authority, which a cabinet does not hold: run it from the sources (npm run soak -- --tickets)');
  const module = UPSTREAM_MODULE;
  const upstream: typeof Upstream = await import(module);
  const { enrolTerminal, migrateUpstream, openPglite, startUpstream } = upstream;
  const db = await openPglite();
  try {
    await migrateUpstream(db);
    // One loopback client: the per-address limits lifted, as the tickets' tests do.
    const up = await startUpstream({ db, limits: { tickets: 1_000_000, ingest: 1_000_000, ticketRefusals: 1_000_000 }, backoffice: false, logger: false });
    const c = await enrolTerminal(db, terminalId);
    // --data-dir names a folder that may not exist yet (the host child makes it later).
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(credentialsFile(dataDir), JSON.stringify({ terminalId: c.terminalId, key: c.key, receiptKey: c.receiptKey, upstream: up.url }), {
      mode: 0o600,
    });
    return {
      url: up.url,
      // What the floor was told of this table: by kind and, where it says one, by what (an honest table raises none but the refusals its players earn).
      alarms: async () => {
        const r = await db.query<{ kind: string; what: string | null; n: number }>(
          "SELECT kind, detail->>'what' AS what, count(*)::int AS n FROM alarms GROUP BY kind, detail->>'what' ORDER BY kind, what",
        );
        return Object.fromEntries(r.rows.map((x) => [x.what ? `${x.kind}: ${x.what}` : x.kind, x.n]));
      },
      close: async () => {
        await up.close();
        await db.close();
      },
    };
  } catch (e) {
    await db.close();
    throw e;
  }
}
