// Two stations at one address of one device named two ways (a symbolic link, as /dev/serial/by-id/
// names a tty) both hear and answer every poll to it: one 0x72 would credit both. The schema
// normalises the paths (host/config/table-config.ts); the host, where it opens the links, resolves
// the links and refuses such a configuration (docs/sas.md, "The host's wiring").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { Ledger } from '../../ledger/index.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { quietSasLinks } from './sas-links-test-kit.js';

it('refuses to open two stations at one SAS address of one device named through a symbolic link, naming both', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-devices-'));
  const ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-DEVICES' });
  try {
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    const device = path.join(dir, 'ttyS0');
    writeFileSync(device, '');
    symlinkSync(device, path.join(dir, 'by-id-ftdi'));
    const base = simulatedTableConfig('war');
    const links = { 1: `serial:${device}`, 2: `serial:${path.join(dir, 'by-id-ftdi')}` } as Record<number, string>;
    const config = TableConfig.parse({
      ...base,
      stations: base.stations.map((s) => (links[s.station] ? { ...s, sas: { link: links[s.station], address: 5 } } : s)),
    });
    const log = pino({ level: 'silent' });
    const sas = quietSasLinks({ config, ledger, tilts: new TiltManager({ ledger, log }), log, dir });
    assert.throws(
      () => sas.start(),
      (e: Error) => /stations 1 and 2/.test(e.message) && /SAS address 5/.test(e.message) && e.message.includes(device),
    );
    await sas.close();
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
