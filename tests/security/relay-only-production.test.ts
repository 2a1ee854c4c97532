// Issue 50 item 3, "Remote stations can still mint with `remoteAcceptors.relayOnly` false, the
// default": an agent that runs its own driver reported a consistent escrow and credit for a note
// that never existed, and station 101 got 500.00 MOP (the credit rule cannot tell a consistent lie
// from a note; only the cashbox count could, later). Relay is now the only mode of a production
// build: its default, and a configuration that turns it off is refused at the start. The agent
// that runs the driver stays for the tests' own builds (the sources run by `node --test`).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { transform } from 'esbuild';
import pino from 'pino';
import { CABINET_DEFINE } from '../../host/config/build-kind.js';
import { TableConfig, simulatedTableConfig } from '../../host/config/table-config.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { startHost } from '../../host/start-host.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';

const silent = pino({ level: 'silent' });

describe('relay only in a production build (issue 50 item 3)', () => {
  it('a production start whose configuration turns relay-only off is refused, naming it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-only-prod-'));
    try {
      const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 1, remoteAcceptors: { relayOnly: false } });
      await assert.rejects(
        startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, logger: silent, simulatedDealer: false, build: 'production' }),
        /remoteAcceptors\.relayOnly/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a production start with the configuration's default refuses an agent that runs the driver itself", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-only-prod-'));
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 1 });
    const host = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, logger: silent, simulatedDealer: false, build: 'production' });
    try {
      const enrolment = host.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const agent = pinnedAgent(enrolment);
      const device = new DeviceClient(enrolment, agent);
      await assert.rejects(device.ready(), /relayed acceptors only/);
      device.close();
      agent.destroy();
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the packaged bundles are production builds; the sources the tests run are not', async () => {
    const source = readFileSync(path.join(import.meta.dirname, '../../host/config/build-kind.ts'), 'utf8');
    const load = async (define: Record<string, string>) => {
      const { code } = await transform(source, { loader: 'ts', format: 'esm', define });
      return ((await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { BUILD: string }).BUILD;
    };
    assert.equal(await load(CABINET_DEFINE), 'production');
    assert.equal(await load({}), 'test');
  });
});
