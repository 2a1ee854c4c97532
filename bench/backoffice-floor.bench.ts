// The back office's floor page with 100 tables of 250 stations (25,000 stations), beside a bare
// page of the same data (issue 49): the time until the 100 rows are on screen, and each update's
// time from the server writing a row's Server-Sent Event to the next frame after the page shows
// it. The real built page (dist/backoffice: npm run build:backoffice) is served with a stand-in
// for the upstream's API (a session, the floor's stream), so only the page is measured. Printed,
// and handed to the report (`figure()`, `npm run bench -- --json`) beside the bare page; never asserted.
import { chromium, type Page } from '@playwright/test';
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import { figure, times } from './report.js';
import { buildPages } from './build-pages.js';

const root = path.resolve(import.meta.dirname, '../dist/backoffice');
buildPages('backoffice');
const TABLES = 100;
const STATIONS = 250;
const UPDATES = process.env.BENCH_QUICK === '1' ? 20 : 100;
const RUNS = process.env.BENCH_QUICK === '1' ? 3 : 5;

const rows = Array.from({ length: TABLES }, (_, i) => ({
  terminalId: `T${String(i + 1).padStart(3, '0')}`,
  tableId: `BJ-${i + 1}`,
  game: ['blackjack', 'baccarat', 'war'][i % 3],
  currency: i % 4 === 3 ? { code: 'HKD', exponent: 2 } : { code: 'MOP', exponent: 2 },
  profile: 'macau-2009',
  lastRound: { roundId: `r-${i}`, at: new Date().toISOString() },
  state: 'betting',
  hold: false,
  faults: [],
  occupied: (i * 37) % STATIONS,
  stations: STATIONS,
  lastSeenAt: new Date().toISOString(),
  lagEntries: 0,
  lagSeconds: 0,
  headSeq: 1000 + i,
  openAlarms: 0,
  unacknowledged: 0,
  configWaiting: 0,
}));

const BARE = `<!doctype html><meta charset="utf-8"><style>:root{font-family:'Noto Sans CJK TC','Noto Sans',system-ui,sans-serif;font-size:14px}</style><h1>樓面</h1><table><thead><tr><th>table</th><th>game</th><th>currency</th><th>rules</th><th>state</th><th>stations</th><th>contact</th><th>lag</th><th>alarms</th></tr></thead><tbody></tbody></table>
<script type="module">
const body = document.querySelector('tbody');
const cells = (r) => [r.tableId + ' (' + r.terminalId + ')', r.game, r.currency.code, r.profile, r.state, r.occupied + ' / ' + r.stations, r.lastSeenAt, r.lagEntries + ' / ' + r.lagSeconds, String(r.openAlarms)];
const tr = (r) => { const t = document.createElement('tr'); t.dataset.terminal = r.terminalId; for (const c of cells(r)) { const d = document.createElement('td'); d.textContent = c; t.append(d); } return t; };
const es = new EventSource('/backoffice/api/floor/events');
es.addEventListener('floor', (e) => body.replaceChildren(...JSON.parse(e.data).map(tr)));
es.addEventListener('rows', (e) => { for (const r of JSON.parse(e.data)) body.querySelector('tr[data-terminal="' + r.terminalId + '"]')?.replaceWith(tr(r)); });
</script>`;

/** The page's open stream (one page at a time). */
const live: { stream: ServerResponse | null } = { stream: null };
const openStream = (): ServerResponse | null => live.stream;
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/bare.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(BARE);
  if (url === '/backoffice/api/session')
    return void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: 'bench', role: 'supervisor', permissions: ['floor', 'acknowledge', 'report'], csrf: 'x' }));
  if (url === '/backoffice/api/floor/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`event: floor\ndata: ${JSON.stringify(rows)}\n\n`);
    live.stream = res;
    return;
  }
  const file = path.join(root, url.replace(/^\/backoffice\//, '').replace(/[?#].*$/, '') || 'index.html');
  if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
  const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
  res.writeHead(200, { 'content-type': type });
  createReadStream(file).pipe(res);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

/** Milliseconds until the floor's 100 rows are shown (the frame after they are in the DOM), then each update's. */
async function measure(page: Page, url: string, cell: string): Promise<{ first: number; updates: number[] }> {
  live.stream = null;
  await page.goto(url);
  await page.waitForFunction(`document.querySelectorAll('tbody tr[data-terminal]').length === ${TABLES}`, undefined, { polling: 'raf' });
  const first = await page.evaluate<number>('new Promise((r) => requestAnimationFrame(() => r(performance.now())))');
  const updates: number[] = [];
  for (let i = 0; i < UPDATES; i++) {
    const row = { ...rows[i % TABLES]!, occupied: 1000 + i };
    const want = `${row.occupied} / ${STATIONS}`;
    // A string, not a function: tsx's keepNames would put a helper the page does not have into it.
    const shown = page.evaluate<number>(`new Promise((resolve) => {
      const target = () => document.querySelector('tr[data-terminal="${row.terminalId}"] ${cell}');
      const done = () => requestAnimationFrame(() => resolve(Date.now()));
      if (target()?.textContent?.includes('${want}')) return done();
      const o = new MutationObserver(() => {
        if (target()?.textContent?.includes('${want}')) { o.disconnect(); done(); }
      });
      o.observe(document.querySelector('tbody') ?? document.body, { subtree: true, childList: true, characterData: true });
    })`);
    await page.evaluate('new Promise((r) => setTimeout(r, 0))');
    const sent = Date.now();
    openStream()?.write(`event: rows\ndata: ${JSON.stringify([row])}\n\n`);
    updates.push((await shown) - sent);
  }
  return { first, updates };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  // The browser's own first navigation (its process, its compiler) is paid once, by a warm-up of
  // each page, then the two pages alternate so that a load spike on this shared machine falls on
  // both: each figure is the median of its runs.
  await measure(page, `${origin}/backoffice/#/floor`, 'td:nth-child(6)');
  await measure(page, `${origin}/bare.html`, 'td:nth-child(6)');
  const runs: { real: { first: number; updates: number[] }; bare: { first: number; updates: number[] } }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const real = await measure(page, `${origin}/backoffice/#/floor`, 'td:nth-child(6)');
    const bare = await measure(page, `${origin}/bare.html`, 'td:nth-child(6)');
    runs.push({ real, bare });
  }
  const real = { first: median(runs.map((r) => r.real.first)), updates: runs.flatMap((r) => r.real.updates) };
  const bare = { first: median(runs.map((r) => r.bare.first)), updates: runs.flatMap((r) => r.bare.updates) };
  console.log(
    `backoffice floor: ${TABLES} tables × ${STATIONS} stations (${TABLES * STATIONS}), ${RUNS} loads of each page after a warm-up, ${UPDATES} updates a load`,
  );
  const firstPaint = figure({
    name: `backoffice floor, ${TABLES} tables: first paint (rows shown), median of ${RUNS} loads`,
    unit: 'ms',
    value: real.first,
    better: 'lower',
    baseline: { name: 'bare page of the same rows and stream, the same', value: bare.first },
  });
  console.log(`  first paint (rows shown, median): page ${real.first.toFixed(0)} ms, bare ${bare.first.toFixed(0)} ms, ratio ${times(firstPaint)}`);
  // Date.now() counts whole milliseconds: a bare median of 0 ms is counted as 1 ms, as the ratio has always been.
  const update = figure({
    name: `backoffice floor, ${TABLES} tables: a row's update, SSE written to the next frame, median`,
    unit: 'ms',
    value: median(real.updates),
    better: 'lower',
    baseline: { name: 'bare page of the same rows and stream, the same (at least 1 ms: whole milliseconds)', value: Math.max(1, median(bare.updates)) },
  });
  console.log(
    `  update (SSE written → next frame): page median ${median(real.updates)} ms p95 ${p95(real.updates)} ms, bare median ${median(bare.updates)} ms p95 ${p95(bare.updates)} ms, ratio ${times(update)}`,
  );
} finally {
  await browser.close();
  live.stream?.end();
  server.close();
}
