// An edge's configuration file that does not read (`etg edge --config FILE`): before, the edge said
// only JSON.parse's words, or zod's issues as raw JSON ("message": "[").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EDGE_CAPS, readEdgeConfig } from './edge-config.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('readEdgeConfig', () => {
  it('names the file and the field that is wrong; a good file has its paths made absolute from its folder', () => {
    const cases: [string, string, RegExp][] = [
      ['cut', '{"name": "e1", "tab', /: it is not JSON \(/],
      ['shape', JSON.stringify({ v: 1 }), /: it is not an edge's configuration \(name: .*; the file: .*"v"/],
      [
        'caps',
        JSON.stringify({
          name: 'e1',
          tableId: 'T1',
          nats: { url: 'nats://10.0.0.1:4222', passwordFile: 'p', certificateFile: 'c' },
          listen: { connections: { perAddress: 9, total: 8 } },
          dataDir: 'd',
        }),
        /perAddress may not be more than total/,
      ],
    ];
    for (const [name, text, said] of cases) {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, text);
      assert.throws(
        () => readEdgeConfig(file),
        (e: Error) => e.message.startsWith(`edge configuration ${file}: `) && said.test(e.message),
        name,
      );
    }
    const good = path.join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        name: 'e1',
        tableId: 'T1',
        nats: { url: 'nats://10.0.0.1:4222', passwordFile: 'e1.password', certificateFile: 'cert.pem' },
        dataDir: 'data',
      }),
    );
    const c = readEdgeConfig(good);
    assert.equal(c.nats.passwordFile, path.join(dir, 'e1.password'));
    assert.equal(c.dataDir, path.join(dir, 'data'));
    // No caps written: the listener's defaults (8 per client address, 600 in all).
    assert.deepEqual(c.listen.connections, EDGE_CAPS);
  });
});
