// A sound enrolment file refused because this table's peers.json cannot be read, or because the
// remote stations given are not a stations list the peers file takes, came back with English only
// ('peers.json cannot be read: Unexpected token…', 'stations: a station is 1–7…') and no reason: the
// service screen said 'Refused: <English>' in every language. Each now carries its reason
// (`peers-unreadable`, `bad-stations`), worded for the screen (service.peers.fileRefused.*).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { openLedger } from '../../ledger/index.js';
import { tableCertificate } from '../stadium/table-certificate.js';
import { TableId } from '../../terms/transfer-terms.js';
import { PEERS_FILE } from './peer-config.js';
import { makePeerOffer } from './peer-offer.js';
import { PeerRegistry } from './peer-registry.js';

const NOW = Date.parse('2026-12-07T04:00:00Z');
const BJ = TableId.parse('bj-1');
const by = ['Ana Lei', 'Bo Chan'] as const;
const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-add-unreadable-'));
after(() => rmSync(dir, { recursive: true, force: true }));

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

function registryIn(sub: string) {
  const dataDir = path.join(dir, sub);
  mkdirSync(dataDir, { recursive: true });
  const ledger = openLedger(dataDir, 'bj-1');
  const registry = new PeerRegistry({ dataDir, self: 'bj-1', ledger, log: pino({ level: 'silent' }), fault: () => {}, url: null, now: () => NOW });
  return { dataDir, ledger, registry };
}

describe("a peer's enrolment refused for this table's own file or the stations given: a reason the screen words", () => {
  it('peers.json cannot be read: peers-unreadable, nothing journalled', async () => {
    const { dataDir, ledger, registry } = registryIn('bj-torn');
    try {
      writeFileSync(path.join(dataDir, PEERS_FILE), '{"v":1,"peers":[');
      const before = ledger.headOf().seq;
      const r = registry.add(await fileOf('war-1'), [201], by);
      assert.equal(r.ok, false);
      assert.equal(r.ok ? null : r.refusal, 'peers-unreadable', JSON.stringify(r));
      assert.match(r.ok ? '' : r.detail, /peers\.json cannot be read/, 'the English kept for the log');
      assert.equal(ledger.headOf().seq, before, 'nothing journalled');
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) assert.ok((words(tag)['peers-unreadable'] ?? '').length > 0, `${tag}: worded`);
    } finally {
      ledger.close();
    }
  });

  it('a station that is no station number: bad-stations, nothing journalled', async () => {
    const { ledger, registry } = registryIn('bj-stations');
    try {
      const before = ledger.headOf().seq;
      const r = registry.add(await fileOf('bac-1'), [0], by);
      assert.equal(r.ok, false);
      assert.equal(r.ok ? null : r.refusal, 'bad-stations', JSON.stringify(r));
      assert.equal(ledger.headOf().seq, before, 'nothing journalled');
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) assert.ok((words(tag)['bad-stations'] ?? '').length > 0, `${tag}: worded`);
    } finally {
      ledger.close();
    }
  });
});
