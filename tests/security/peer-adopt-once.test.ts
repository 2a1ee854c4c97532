// Review of "Files in the data folder that grant trust", "adopted as found is open for ever": the
// peer files were adopted at any start whose journal had no `peer.credential` entry, not only a
// folder's first. A table that had run for months without peers has none; whoever can write its
// data folder while it is stopped plants `peer-credentials.json` (a secret of their choosing) and
// `peers.json` (a table of their own, `evil-1`, with station 102 homed there). Before: at the next
// start both were adopted (`adopt`, "adopted as found"), no fault, evil-1 was welcomed on `/peer`
// and its offer of 1,000,000 credited. Now the first start with no peer entry journals that the
// table has none (`none`), so files that appear later are refused as not enrolled, and a fault.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { writePeers } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { PEER_PROTOCOL_VERSION } from '../../host/peers/peer-wire.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import { startHost } from '../../host/start-host.js';
import { entriesOfTypes, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const WAR = TableId.parse('war-1');
const EVIL = TableId.parse('evil-1');

/** Says `hello-peer` to war-1 as `table` with `secret`: its first answer, or `closed`. */
async function hello(port: number, table: TableId, secret: string): Promise<string> {
  const ws = new WebSocket(`wss://127.0.0.1:${port}/peer`, { rejectUnauthorized: false });
  ws.on('error', () => undefined);
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  const answer = new Promise<string>((r) => {
    ws.once('message', (d) => r(String(d)));
    ws.once('close', () => r('closed'));
  });
  ws.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table, secret }));
  const a = await answer;
  ws.terminate();
  return a;
}

describe('peer files are adopted at the first start only (review of the files that grant trust)', { timeout: 120_000 }, () => {
  it('a table that ran without peers refuses peer files planted while it was stopped, and raises peer-integrity', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'peer-adopt-once-'));
    const dir = path.join(root, WAR);
    const port = await freePort();
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 2, lan: { host: '127.0.0.1', port } });
    const start = () => startHost({ dataDir: dir, rendererDir: path.join(root, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    const peerEntries = (war: Awaited<ReturnType<typeof start>>) =>
      [...entriesOfTypes(war.ledger, ['peer.credential'])].map((e) => (JSON.parse(e.body) as EntryBody).payload as { table: string; action: string });
    try {
      // Months of running without peers (here one start and stop): the journal says so once.
      let war = await start();
      assert.deepEqual(
        peerEntries(war).map((p) => [p.table, p.action]),
        [[WAR, 'none']],
      );
      await war.close();

      // Stopped: the attacker writes both files (a certificate of its own, a secret it chose).
      const evilCert = await tableCertificate(path.join(root, 'evil'), EVIL, ['127.0.0.1']);
      const secret = PeerCredentials.inDataDir(dir).enrol(EVIL);
      writePeers(dir, {
        v: 1,
        peers: [
          {
            enrolment: { table: EVIL, url: 'https://127.0.0.1:9', certificate: evilCert.cert, fingerprint: evilCert.fingerprint, secret: 'e'.repeat(43) },
            stations: [102],
          },
        ],
        tickMs: 60_000,
        recallAfterSeconds: 3600,
      });

      war = await start();
      try {
        assert.deepEqual(
          peerEntries(war).map((p) => [p.table, p.action]),
          [[WAR, 'none']],
          'nothing adopted at the second start',
        );
        const faults = war.floor.tilts.list().filter((t) => t.kind === 'peer-integrity');
        assert.equal(faults.length, 1, 'the planted files are a fault');
        assert.match(JSON.stringify(faults[0]), /evil-1: in the data folder's files, not enrolled in the journal/);
        const answer = await hello(port, EVIL, secret);
        assert.doesNotMatch(answer, /peer-welcome/, 'the planted table is not let in');
        assert.ok(!war.transfers?.links.has(EVIL), 'the planted table is not dialled');
        // A restart adopts nothing more: the baseline is journalled once.
        await war.close();
        war = await start();
        assert.equal(peerEntries(war).length, 1);
        assert.ok(war.floor.tilts.list().some((t) => t.kind === 'peer-integrity'));
      } finally {
        await war.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
