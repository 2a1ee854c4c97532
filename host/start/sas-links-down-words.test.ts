// A station's SAS link down, as service mode's Status page says it (host/service/backend/table-summary.ts
// gives a fault's detail only by key): which link, and why, in the screen's language. Until 7 December
// the fault carried only the host's English (`serial:/dev/… no-address`, `uart:… port: ENOENT…`): the
// Status page said nothing of it in any language, and the journal's English mixed a reason code with
// the port's own text. Until 7 December the port's cause was that English too (a parameter `report`
// journalled with the fault, the words saying only "would not open or was lost"): now it is a code
// (`SasPortWhy`, hardware/sas/link.ts) that the words name, and the English is the log's alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig } from '../config/table-config.js';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { createI18n, isMessageKey } from '../../locales/i18n.js';
import { saidWords, type Said } from '../../locales/said.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { quietSasLinks } from './sas-links-test-kit.js';

const languages = ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const;

/** A fault's detail as the Status page says it (renderer/src/screens/service/pages/fault-detail.ts). */
function words(language: (typeof languages)[number], say: { key: string; values: Said['values'] } | undefined): string {
  assert.ok(say, 'the detail is said by key');
  const key = say.key;
  assert.ok(isMessageKey(key) && key.startsWith('tiltDetail.'), key);
  const t = createI18n(language).t;
  return saidWords((k, options) => t(k, options) as string, { key, values: say.values });
}

describe('a SAS link down, in the Status page’s words', () => {
  it('says which link and why by key in every language; the port’s own report stays out of the words; raised once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-down-words-'));
    const ledger = Ledger.open({ file: path.join(dir, 'ledger.sqlite'), terminalId: 'T-SASDOWN' });
    const logged: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    const tilts = new TiltManager({ ledger, log });
    const uart = `uart:${path.join(dir, 'no-such-uart')}`;
    // A terminal server that takes the connection and says nothing: the port is open, the casino system silent.
    const server = net.createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    const tcp = `tcp:127.0.0.1:${address.port}`;
    const base = simulatedTableConfig('war');
    const config = {
      ...base,
      stations: base.stations.map((s) =>
        s.station === 1 ? { ...s, sas: { link: uart, address: 1 } } : s.station === 2 ? { ...s, sas: { link: tcp, address: 2 } } : s,
      ),
    };
    const links = quietSasLinks({ config, ledger, tilts, log, dir, timing: { silenceMs: 150, chirpMs: 50 } });
    const fault = (station: number) => tilts.list().find((t) => t.kind === 'sas-link-down' && t.station === station);
    try {
      links.start();
      const t0 = Date.now();
      while (!(fault(1) && fault(2))) {
        assert.ok(Date.now() - t0 < 10_000, 'both links down within 10 s');
        await sleep(20);
      }
      // The silence comes after the port's refusal too: it must not raise the uart's fault again.
      await sleep(400);
      const [port, silent] = [fault(1), fault(2)];
      assert.equal(port?.say?.key, 'tiltDetail.sasPortDown');
      assert.equal(port.say.values.link, uart);
      assert.equal(port.say.values.sasPort, 'open', 'the port’s cause, a code');
      assert.equal(port.say.values.report, undefined, 'the port’s own English is not the fault’s');
      const down = logged
        .map((l) => JSON.parse(l) as { msg: string; station?: number; reason?: string; why?: string })
        .find((l) => l.msg === 'SAS port down' && l.station === 1);
      assert.match(down?.reason ?? '', /ENOENT|No such file/, 'the port’s own report is the log’s');
      assert.equal(down?.why, 'open');
      assert.equal(silent?.say?.key, 'tiltDetail.sasLinkSilent');
      assert.equal(silent.say.values.link, tcp);
      for (const l of languages)
        for (const f of [port, silent]) {
          const said = words(l, f.say);
          assert.ok(said.includes(String(f.say?.values.link)), `${l}: names the link: ${said}`);
          assert.doesNotMatch(said, /ENOENT|No such file|no-address|no-ack|cannot open|\{\{|sasPort/, `${l}: ${said}`);
          if (l.startsWith('zh')) assert.doesNotMatch(said.replaceAll(String(f.say?.values.link), ''), /[A-Za-z]{3,}/, `${l}: no English: ${said}`);
        }
      // Each language names the cause, not only that the port is down.
      const cause = { en: /would not open/, pt: /não abriu/, 'zh-Hant': /無法開啟/, 'zh-Hans': /无法打开/ };
      for (const l of languages) assert.match(words(l, port.say), cause[l], l);
      assert.notEqual(
        words('en', port.say),
        words('en', { key: port.say.key, values: { ...port.say.values, sasPort: 'lost' } }),
        'a port lost is said otherwise',
      );
      const raises = [...entriesOfTypes(ledger, ['tilt.raise'])].filter((e) => /"kind":"sas-link-down"/.test(e.body) && /"station":1[,}]/.test(e.body));
      assert.equal(raises.length, 1, 'the uart’s fault raised once');
      assert.doesNotMatch(raises[0]?.body ?? '', /ENOENT|No such file/, 'no English of the port’s in the journal');
    } finally {
      await links.close();
      tilts.close();
      ledger.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
