import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';

/** A table host with remote stations, each enrolled by two people and its agent's device link greeted: what a compromised station machine speaks through. */
export interface AgentsAtHost {
  readonly running: RunningHost;
  device(station: number): DeviceClient;
  close(): Promise<void>;
}

export async function hostWithAgents(prefix: string, config: TableConfig, stations: readonly number[]): Promise<AgentsAtHost> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const running = await startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'no-renderer'),
    config,
    logger: pino({ level: 'silent' }),
    simulatedDealer: false,
  });
  const devices = new Map<number, DeviceClient>();
  let agent: ReturnType<typeof pinnedAgent> | undefined;
  for (const station of stations) {
    const e = running.stadium.enrol(station, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    agent ??= pinnedAgent(e);
    const d = new DeviceClient(e, agent);
    devices.set(station, d);
    await d.ready();
  }
  return {
    running,
    device: (station) => devices.get(station) ?? noLink(station),
    close: async () => {
      for (const d of devices.values()) d.close();
      agent?.destroy();
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function noLink(station: number): never {
  throw new Error(`station ${station} has no device link in this test`);
}
