import { simulatedTableConfig } from '../../host/config/table-config.js';
import { drawnTexts, expect, insertNote, press, test, waitForEvent } from './kiosk-fixture.js';
import { simControl, startServiceKiosk, verifyLedgerOf } from './service-kit.js';

// «6 Sortudo» (Lucky 6; Despacho 55/2004 Art. 13 n.1 4)(3), Art. 17 n.5) where the table offers it
// with its reference (issue 33 item 4): a box on the table display's felt, a spot at the station,
// a bet that settles in the coup.

test('baccarat with «6 Sortudo» offered: its box on the felt, its spot at the station, the bet placed and settled, the ledger verified', async ({
  openScreen,
}) => {
  test.setTimeout(480_000);
  const errors: string[] = [];
  const config = { ...simulatedTableConfig('baccarat'), profileOptions: { lucky6: true }, profileAuthorisation: 'DICJ-TEST-L6' };
  const { kiosk, stop } = await startServiceKiosk(config, ['--game', 'baccarat', '--sim-controls', '--betting-seconds', '10', '--results-seconds', '5']);
  try {
    const table = await openScreen(kiosk.screens['table']!, { errors });
    const station = await openScreen(kiosk.screens['station/1']!, { errors });
    await waitForEvent(table, 'snapshot:table');
    await waitForEvent(station, 'snapshot:station/1');
    // The felt prints the box by its name in the regulation's Chinese.
    await expect.poll(() => drawnTexts(table), { timeout: 30_000 }).toContain('幸運6');

    await insertNote(kiosk, 1, 500);
    await waitForEvent(station, 'credit:50000');
    await expect.poll(async () => station.evaluate(() => window.__kiosk?.bounds('bet-lucky6') ?? null), { timeout: 60_000 }).not.toBeNull();
    // A window of 10 s, not 3: with 3 the bet was placed, but under load the coup settled and the
    // next window opened before the poll below saw the spot's stake (final CI of 27 November).
    await press(station, 'chip-10000');
    await press(station, 'bet-lucky6');
    await expect.poll(() => drawnTexts(station), { timeout: 20_000 }).toContain('幸運6\nMOP$100');
    await waitForEvent(station, 'credit:40000');
    // The coup is dealt and settled: the station shows its result (12 or 20 to 1 on a banker 6, else lost).
    await expect.poll(async () => (await drawnTexts(station)).some((t) => t.startsWith('本局結果')), { timeout: 90_000 }).toBe(true);
    await expect
      .poll(() =>
        simControl(kiosk, 'freeze-countdown', { kind: 'betting' }).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(errors).toEqual([]);
  } finally {
    await stop();
  }
});
