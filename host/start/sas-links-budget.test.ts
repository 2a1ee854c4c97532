// A casino system (or whatever sits on a `tcp:` terminal server's far end) that sends faster than a
// SAS line carries has the bytes past the line's budget dropped (hardware/sas/link.ts,
// SAS_LINE_BYTES). Before, those drops were counted (`SasLink.overBudget`) and nothing read the
// count: short of the flood cut, the host's polls went unanswered and neither a fault, a log line
// nor anything else told the technician why. Now the host's log says it, sampled, with the station,
// the link and the bytes dropped.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { SAS_LINE_BYTES } from '../../hardware/sas/link.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { Ledger } from '../../ledger/index.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { quietSasLinks } from './sas-links-test-kit.js';

async function until(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a SAS link past its byte budget', () => {
  it('says in the host’s log that bytes were dropped, with the station, the link and how many', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-budget-'));
    const lines: { msg: string; station?: number; link?: string; dropped?: number; total?: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
        done();
      },
    });
    const log = pino({ level: 'info' }, sink);
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-BUDGET' });
    const base = simulatedTableConfig('war');
    const spec = `tcp:127.0.0.1:${port}`;
    const config = { ...base, stations: base.stations.map((s) => (s.station === 1 ? { ...s, sas: { link: spec, address: 1 } } : s)) };
    const links = quietSasLinks({ config, ledger, tilts: new TiltManager({ ledger, log }), log, dir });
    try {
      links.start();
      await until('the link to connect', () => sockets.length === 1);
      // A burst's worth and 4,000 bytes more at once: past the budget, short of the flood cut.
      sockets[0]?.write(Buffer.alloc(SAS_LINE_BYTES.burst + 4_000, 0x01));
      await until('the drop to be said', () => lines.some((l) => /past the line/.test(l.msg)));
      const said = lines.find((l) => /past the line/.test(l.msg));
      assert.equal(said?.station, 1);
      assert.equal(said?.link, spec);
      assert.ok((said?.dropped ?? 0) > 0 && (said?.dropped ?? 0) <= 4_000, JSON.stringify(said));
      assert.equal(links.link(1)?.overBudget, said?.total);
      assert.equal(sockets[0]?.destroyed, false, 'short of the flood cut the connection is kept');
    } finally {
      await links.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
