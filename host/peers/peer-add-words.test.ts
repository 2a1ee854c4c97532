// A peer table's enrolment file that is sound but whose remote stations are already homed at
// another peer (or one peer too many) was refused with the peers file schema's English ('a station
// is homed at two tables') and no reason: the service screen said 'Refused: a station is homed at
// two tables' in every language. The refusal carries its reason (`stations-elsewhere`,
// `too-many-peers`), which the screen words (service.peers.fileRefused.*).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { openLedger } from '../../ledger/index.js';
import { tableCertificate } from '../stadium/table-certificate.js';
import { TableId } from '../../terms/transfer-terms.js';
import { makePeerOffer } from './peer-offer.js';
import { PeerRegistry } from './peer-registry.js';

const NOW = Date.parse('2026-12-07T04:00:00Z');
const BJ = TableId.parse('bj-1');
const by = ['Ana Lei', 'Bo Chan'] as const;
const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-add-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A sound enrolment file of `table` for bj-1. */
async function fileOf(table: string): Promise<string> {
  const certificate = await tableCertificate(path.join(dir, table), table, ['127.0.0.1']);
  return makePeerOffer({
    table: TableId.parse(table),
    terminal: table,
    for: BJ,
    url: 'https://127.0.0.1:9443',
    certificate,
    secret: randomBytes(32).toString('base64url'),
    credential: randomBytes(16).toString('hex'),
    issuedAt: new Date(NOW - 60_000),
  });
}

const words = (tag: string) =>
  (JSON.parse(readFileSync(path.join('locales/catalogues', `${tag}.json`), 'utf8')) as { service: { peers: { fileRefused: Record<string, string> } } }).service
    .peers.fileRefused;

describe("a peer's enrolment file refused for its stations: a reason the screen words", () => {
  it('a station already homed at another peer table', async () => {
    const ledger = openLedger(path.join(dir, 'bj'), 'bj-1');
    try {
      const registry = new PeerRegistry({
        dataDir: path.join(dir, 'bj'),
        self: 'bj-1',
        ledger,
        log: pino({ level: 'silent' }),
        fault: () => {},
        url: null,
        now: () => NOW,
      });
      assert.deepEqual(registry.add(await fileOf('war-1'), [201], by), { ok: true, table: 'war-1' });
      const r = registry.add(await fileOf('bac-1'), [201, 202], by);
      assert.equal(r.ok, false);
      assert.equal(r.ok ? null : r.refusal, 'stations-elsewhere', JSON.stringify(r));
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) assert.ok((words(tag)['stations-elsewhere'] ?? '').length > 0, `${tag}: worded`);
    } finally {
      ledger.close();
    }
  });

  it('a seventeenth peer table', async () => {
    const ledger = openLedger(path.join(dir, 'bj-many'), 'bj-1');
    try {
      const registry = new PeerRegistry({
        dataDir: path.join(dir, 'bj-many'),
        self: 'bj-1',
        ledger,
        log: pino({ level: 'silent' }),
        fault: () => {},
        url: null,
        now: () => NOW,
      });
      for (let i = 1; i <= 16; i++) assert.equal(registry.add(await fileOf(`t-${i}`), [200 + i], by).ok, true, `peer ${i}`);
      const r = registry.add(await fileOf('t-17'), [217], by);
      assert.equal(r.ok ? null : r.refusal, 'too-many-peers', JSON.stringify(r));
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) assert.ok((words(tag)['too-many-peers'] ?? '').length > 0, `${tag}: worded`);
    } finally {
      ledger.close();
    }
  });
});
