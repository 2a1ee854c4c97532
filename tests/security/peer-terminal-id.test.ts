// A table with peers that syncs its ledger under a terminal id other than its table id (review of
// the fourth wave): the upstream pairs each transfer by the table ids its entries name, against the
// terminal ids it holds journals under, so every transfer of that table was read as no one's: a
// minted credit paired to nothing, no alarm, no warning. Such a host now refuses to start.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers, writePeers } from '../../host/peers/peer-config.js';
import { startHost } from '../../host/start-host.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');

describe('a table with peers syncs under its own table id', { timeout: 120_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'peer-terminal-id-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('refuses to start with peers under another terminal id, saying why; starts under its own', async () => {
    const ports = { bj: await freePort(), war: await freePort() };
    const dirs = { bj: path.join(root, BJ), war: path.join(root, WAR) };
    await enrolFloor(
      [
        { table: BJ, dataDir: dirs.bj, url: `https://127.0.0.1:${ports.bj}`, stations: [102] },
        { table: WAR, dataDir: dirs.war, url: `https://127.0.0.1:${ports.war}`, stations: [103] },
      ],
      { tickMs: 60_000, recallAfterSeconds: 3600 },
    );
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 3, lan: { host: '127.0.0.1', port: ports.war } });
    const start = (terminalId?: string) =>
      startHost({
        dataDir: dirs.war,
        rendererDir: path.join(root, 'none'),
        config,
        logger: pino({ level: 'silent' }),
        simulatedDealer: false,
        ...(terminalId ? { terminalId } : {}),
      });
    await assert.rejects(start('T-01'), /peer tables.*terminal id "T-01".*table id "war-1"/s);
    // A peers.json that lists none (every peer removed) is no peer table: it starts.
    const listed = readPeers(dirs.war);
    assert.ok(listed);
    const solo = path.join(root, 'solo');
    mkdirSync(solo);
    writePeers(solo, { ...listed, peers: [] });
    const none = await startHost({
      dataDir: solo,
      rendererDir: path.join(root, 'none'),
      config,
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
      terminalId: 'T-01',
    });
    await none.close();
    const host = await start();
    assert.ok(host.transfers, 'its transfers open under its own id');
    await host.close();
  });
});
