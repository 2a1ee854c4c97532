import { drawnCards, endBetting, expect, insertNote, press, test, waitForEvent } from './kiosk-fixture.js';

/**
 * A station screen behind a link that loses every third change of the public round: the screen
 * asks for the round whole (`resync`) each time a patch does not follow what it holds, and shows
 * the coup's cards and result as the table display does. Protocol 4 (docs/screen-protocol.md).
 */
test('a station screen that misses patches of the round asks for it whole and shows the coup as the table does', async ({
  browser,
  openScreen,
  baccaratKiosk,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  const table = await openScreen(baccaratKiosk.screens['table']!, { errors });
  const station = await browser.newPage();
  station.on('pageerror', (e) => errors.push(`${e.message} ${e.stack ?? ''}`));
  const dropped: number[] = [];
  const asked: string[][] = [];
  let patches = 0;
  // The lossy link, between the station's page and the host.
  await station.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const sent = JSON.parse(String(m)) as { type?: string; parts?: string[] };
      if (sent.type === 'resync') asked.push(sent.parts ?? []);
      server.send(m);
    });
    server.onMessage((m) => {
      // A patch is the tuple `[target, version, ops]` (protocol 6): the round's are `["round",N,…]`.
      const got = JSON.parse(String(m)) as unknown;
      if (Array.isArray(got) && got[0] === 'round' && ++patches % 3 === 0) {
        dropped.push(typeof got[1] === 'number' ? got[1] : -1);
        return;
      }
      ws.send(m);
    });
  });
  try {
    await station.goto(baccaratKiosk.screens['station/1']!);
    await waitForEvent(table, 'snapshot:table');
    await waitForEvent(station, 'snapshot:station/1');
    await insertNote(baccaratKiosk, 1, 500);
    await waitForEvent(station, 'credit:50000');
    // The simulated dealer deals a coup once a bet is on the table: a banker bet from the station.
    await expect.poll(async () => station.evaluate(() => window.__kiosk?.bounds('bet-banker') ?? null), { timeout: 60_000 }).not.toBeNull();
    await press(station, 'chip-10000');
    await press(station, 'bet-banker');
    await waitForEvent(station, 'credit:40000');
    // The bet taken, the window ends (not waited out).
    await endBetting(baccaratKiosk);
    // Its cards reach the table display whole, and the lossy station through patches and resyncs.
    await expect.poll(async () => (await drawnCards(table)).length, { timeout: 90_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(() => dropped.length, { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => asked.some((p) => p.includes('round')), { timeout: 20_000 }).toBe(true);
    // Whatever was lost, the station ends with the table's cards.
    await expect
      .poll(async () => JSON.stringify([...(await drawnCards(station))].sort()) === JSON.stringify([...(await drawnCards(table))].sort()), { timeout: 30_000 })
      .toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await station.close();
  }
});
