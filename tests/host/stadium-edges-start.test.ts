// Issue 55: a table whose configuration names edges starts its own NATS server (each edge its own
// user and password, made on the first start, owner-only) and the bridge, as `npm start` does
// through startHost; `etg edge --config FILE` runs an edge from its configuration file with its
// own certificate, and a station proves itself and plays its view through it. NATS refuses a
// stranger and an edge's user with a wrong password, and speaks TLS only (its certificate made on
// the first start, pinned by the edge's file). A table without edges starts no NATS.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'nats';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { natsTls, readNatsPin } from '../../host/edges/nats-tls.js';
import { log } from './edges-kit.js';

const bin = path.join(import.meta.dirname, '../../bin/etg.js');

describe('a table configured with edges, and etg edge', { timeout: 120_000 }, () => {
  let dir: string;
  let running: RunningHost;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'edges-start-'));
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 2, edges: { names: ['edge-1'], nats: { port: 0 } } });
    running = await startHost({
      dataDir: path.join(dir, 'host'),
      rendererDir: path.join(dir, 'no-renderer'),
      config,
      logger: log,
      seed: 3,
      simulatedDealer: { dealMs: 5 },
      timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 100 },
    });
  });
  after(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts NATS with a user per edge; etg edge runs an edge from its file; a station plays through it', async () => {
    const edges = running.edges ?? assert.fail('the host started no edges');
    const passwordFile = path.join(dir, 'host', 'edges', 'edge-1.password');
    assert.equal(statSync(passwordFile).mode & 0o077, 0, "the edge's password is owner-only");
    // NATS refuses a stranger, and edge-1 with a wrong password (over TLS to its pinned certificate);
    // and edge-1 with its own password in clear (tests/security/nats-tls.test.ts: the rest).
    const certificateFile = path.join(dir, 'host', 'edges', 'tls', 'table-cert.pem');
    assert.equal(statSync(path.join(dir, 'host', 'edges', 'tls', 'table-key.pem')).mode & 0o077, 0, "the NATS server's key is owner-only");
    const tls = natsTls(readNatsPin(certificateFile));
    await assert.rejects(connect({ servers: edges.nats.url, maxReconnectAttempts: 0, reconnect: false, tls }));
    await assert.rejects(connect({ servers: edges.nats.url, user: 'edge-1', pass: 'not-its-password-0123456789', reconnect: false, tls }));
    const own = readFileSync(passwordFile, 'utf8').trim();
    await assert.rejects(connect({ servers: edges.nats.url, user: 'edge-1', pass: own, reconnect: false, tls: null }));

    const configFile = path.join(dir, 'edge-1.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        name: 'edge-1',
        tableId: running.table.state.params.tableId,
        nats: { url: edges.nats.url, passwordFile, certificateFile },
        listen: { host: '127.0.0.1', port: 0 },
        dataDir: 'edge-1-data',
      }),
    );
    const child = spawn(process.execPath, [bin, 'edge', '--config', configFile, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.once('exit', (code) => reject(new Error(`etg edge exited ${code}: ${err}`)));
      });
      const about = JSON.parse(line) as { edge: string; origin: string; fingerprint: string; certificate: string };
      assert.equal(about.edge, 'edge-1');
      const certificate = readFileSync(path.join(about.certificate, 'table-cert.pem'), 'utf8');
      const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const atEdge = { ...enrolment, host: about.origin, certificate, fingerprint: about.fingerprint, edge: true as const };
      const station = new HeadlessStation(atEdge, pinnedAgent(atEdge));
      try {
        await station.connect();
        const end = Date.now() + 20_000;
        while (station.latest() === null || station.version() !== running.screens.hub.version('station/101')) {
          assert.ok(Date.now() < end, `the station whole through etg edge: ${err}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(edges.bridge.holder(101), 'edge-1');
      } finally {
        station.terminate();
      }
      child.kill('SIGTERM');
      assert.equal(await exited, 0, err);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
