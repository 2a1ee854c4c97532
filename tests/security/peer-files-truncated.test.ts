// Review of "Files in the data folder that grant trust", "a power cut during a peer change stops
// the table": `peers.json` was written in place (truncated, then written), so a power cut in the
// middle of a two-person peer change (journalled first, then the files written) could leave it cut
// short, and a `peers.json` that did not parse stopped the whole host at its start (the game, the
// screens, everything), where docs/security.md says files that do not parse refuse every peer.
// Now it is written to a temporary file and renamed, and at start an unreadable `peers.json`
// refuses the peers (the `peer-integrity` fault, saying so) while the table starts.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers, writePeers } from '../../host/peers/peer-config.js';
import { startHost } from '../../host/start-host.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
/** What a power cut leaves of `peers.json` after a write in place truncated it and wrote part. */
const CUT_SHORT = '{\n "v": 1,\n "peers": [\n  {\n   "enrolment": {\n    "table": "bj-1",\n    "url": "https://10.0';

describe('a peers.json cut short by a power cut (review of the files that grant trust)', { timeout: 120_000 }, () => {
  it('the table still starts; its peers are refused and peer-integrity raised, saying the file cannot be read', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'peer-truncated-'));
    const ports = { bj: await freePort(), war: await freePort() };
    const dirs = { bj: path.join(root, BJ), war: path.join(root, WAR) };
    await enrolFloor(
      [
        { table: BJ, dataDir: dirs.bj, url: `https://127.0.0.1:${ports.bj}`, stations: [101] },
        { table: WAR, dataDir: dirs.war, url: `https://127.0.0.1:${ports.war}`, stations: [102] },
      ],
      { tickMs: 60_000, recallAfterSeconds: 3600 },
    );
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 2, lan: { host: '127.0.0.1', port: ports.war } });
    const start = () =>
      startHost({ dataDir: dirs.war, rendererDir: path.join(root, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    try {
      // The first start adopts bj-1 (journalled); then the cut.
      let war = await start();
      assert.ok(war.transfers?.links.has(BJ));
      await war.close();
      writeFileSync(path.join(dirs.war, 'peers.json'), CUT_SHORT);

      war = await start();
      try {
        assert.equal(war.transfers, null, 'no transfers with the peers this start');
        const faults = war.floor.tilts.list().filter((t) => t.kind === 'peer-integrity');
        assert.equal(faults.length, 1, 'peer-integrity raised');
        assert.match(JSON.stringify(faults[0]), /bj-1: the peer files cannot be read/);
      } finally {
        await war.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes peers.json whole or not at all: to a temporary file, then renamed over it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-write-'));
    try {
      writePeers(dir, { v: 1, peers: [] });
      const before = statSync(path.join(dir, 'peers.json')).ino;
      writePeers(dir, { v: 1, peers: [], tickMs: 500 });
      assert.equal(readPeers(dir)?.tickMs, 500);
      // A new file renamed over the old one (a write in place, truncating the old, keeps its inode).
      assert.notEqual(statSync(path.join(dir, 'peers.json')).ino, before, 'renamed over, not written in place');
      assert.deepEqual(readdirSync(dir), ['peers.json'], 'no temporary file left');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
