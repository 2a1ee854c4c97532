// Issue 50 item 6, "1,000 LAN addresses rotate the logs away": the log budget was per client only,
// so 1,000 addresses each spending their own (20 at once, then 10 a minute) wrote 452 KB of "screen
// disconnected" lines in 31 s, and the default 120 MB of logs (20 MB and five rotated) were gone in
// about 75 minutes, the kiosk's own lines with them. Here the host's logger (host/logger.ts, the
// production path: the client budget, the summary of what it drops, the size-capped file) takes a
// flood from 1,000 addresses for two hours of its clock, each address trying a line every 30 s, while
// the kiosk writes one line of its own a minute. What the flood may write in a day must leave the
// kiosk's own last 24 hours in the 120 MB: the flood's bytes per day are at most a third of them.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createLogger, DEFAULT_ROTATION, HOST_LOG } from '../../host/logger.js';

const HOURS = 2;
const ADDRESSES = 1_000;

describe('a log budget for the whole listener (issue 50 item 6)', () => {
  it('1,000 addresses flooding for two hours write at most a third of the logs a day; every line of the kiosk stays', (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'log-listener-'));
    let now = 0;
    // A cap large enough to hold all of it: the test measures what was written.
    const logger = createLogger(dir, { rotation: { maxBytes: 1024 * 1024 * 1024, keep: 0 }, console: null, clock: () => now });
    try {
      const clients = Array.from({ length: ADDRESSES }, (_, i) => logger.child({ client: `10.1.${Math.floor(i / 250)}.${i % 250}` }));
      let own = 0;
      for (let t = 0; t < HOURS * 3600_000; t += 30_000) {
        now = t;
        for (const c of clients) c.info({ listener: 'lan', code: 1006, reason: '' }, 'screen disconnected');
        if (t % 60_000 === 0) logger.info({ n: own++ }, 'own entry of the kiosk');
        // A screen that said who it is, connecting during the flood: its own budget, not the strangers'.
        if (t === 3600_000) logger.child({ client: 'station/3', known: true }).info('screen connected');
      }
      now += 120_000;
      logger.info({ n: own++ }, 'own entry of the kiosk');
      const text = [HOST_LOG]
        .map((f) => path.join(dir, f))
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f, 'utf8'))
        .join('');
      const lines = text.split('\n').filter((l) => l.length > 0);
      const ownLines = lines.filter((l) => l.includes('own entry of the kiosk'));
      assert.equal(ownLines.length, own, "every line of the kiosk's own is written");
      assert.ok(
        lines.some((l) => l.includes('"station/3"') && l.includes('screen connected')),
        "a known screen's line during the flood is written",
      );
      const floodBytes = lines.filter((l) => !l.includes('own entry of the kiosk')).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      const perDay = (floodBytes * 24) / HOURS;
      const capacity = DEFAULT_ROTATION.maxBytes * (DEFAULT_ROTATION.keep + 1);
      t.diagnostic(`flood: ${floodBytes} bytes in ${HOURS} h (${(perDay / 1e6).toFixed(1)} MB a day) of ${(capacity / 1e6).toFixed(0)} MB`);
      assert.ok(perDay <= capacity / 3, `the flood writes ${(perDay / 1e6).toFixed(1)} MB a day of the ${(capacity / 1e6).toFixed(0)} MB`);
      assert.ok(
        lines.some((l) => l.includes('log lines dropped over their client budget')),
        'what was dropped is summed up',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
