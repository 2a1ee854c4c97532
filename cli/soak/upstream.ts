import { writeFileSync } from 'node:fs';
import { credentialsFile } from '../../ledger/index.js';
import { enrolTerminal, migrateUpstream, openPglite, startUpstream } from '../../upstream/index.js';

/**
 * The soak's validation authority (`etg soak --tickets`, docs/tito.md): an upstream on an
 * in-memory PGlite in the soak's own process, the table enrolled on it and its credentials written
 * into the data folder, so that the host child syncs its journal there and asks it about every
 * ticket its players insert (without one every ticket would go back `offline`).
 */
export async function soakUpstream(dataDir: string, terminalId: string): Promise<{ url: string; close: () => Promise<void> }> {
  const db = await openPglite();
  try {
    await migrateUpstream(db);
    // One loopback client: the per-address limits lifted, as the tickets' tests do.
    const up = await startUpstream({ db, limits: { tickets: 1_000_000, ingest: 1_000_000 }, backoffice: false, logger: false });
    const c = await enrolTerminal(db, terminalId);
    writeFileSync(credentialsFile(dataDir), JSON.stringify({ terminalId: c.terminalId, key: c.key, receiptKey: c.receiptKey, upstream: up.url }), {
      mode: 0o600,
    });
    return {
      url: up.url,
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
