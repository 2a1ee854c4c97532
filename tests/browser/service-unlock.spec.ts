import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { expect, test as base, waitForEvent, type Kiosk } from './kiosk-fixture.js';
import { pressUntilShown, pressWhenShown, signIn, startServiceKiosk, SUP, texts, tr, typeOnPad } from './service-kit.js';

// Issue 50 item 5: an account locked by wrong PINs (a stranger's, perhaps) is lifted by another
// supervisor from the service screen, journalled, and its owner signs in at once, while the host
// runs (before, only the command line could unlock it, with the host stopped).

/** The second supervisor, who lifts the lock on the first. */
const SUP2 = { name: 'Carla Wong', role: 'supervisor' as const, pin: '615207', staff: '3003' };
const root = path.resolve(import.meta.dirname, '../..');

const test = base.extend<object, { serviceKiosk: Kiosk & { dataDir: string } }>({
  serviceKiosk: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack'), ['--seed', '7'], [SUP2]);
      await use(kiosk);
      await stop();
    },
    { scope: 'worker' },
  ],
});

/** The journal's `service.account` entries, as `etg ledger export` gives them (a reader beside the running host). */
function accountEntries(dataDir: string): { staff: string; action: string; by: string }[] {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', 'export', '--data-dir', dataDir, '--json'], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { entries: { type: string; body: { payload: { staff: string; action: string; by: string } } }[] };
  return out.entries.filter((e) => e.type === 'service.account').map((e) => e.body.payload);
}

test('a supervisor unlocks an account locked by wrong PINs from the service screen; its owner then signs in; the unlock journalled', async ({
  page,
  context,
  serviceKiosk,
  pageErrors,
}) => {
  test.setTimeout(180_000);
  const service = serviceKiosk.screens['service']!;

  // A stranger at another service screen tries five wrong PINs on Ana Lei's staff number: locked.
  const stranger = await context.newPage();
  await stranger.goto(service);
  await waitForEvent(stranger, 'snapshot:service');
  for (const pin of ['111111', '222222', '333333', '444444', '555555']) {
    await typeOnPad(stranger, 'signin', SUP.staff);
    await typeOnPad(stranger, 'signin', pin);
    await expect
      .poll(() => texts(stranger))
      .toMatch(new RegExp(`${tr('zh-Hant', 'service.signIn.bad')}|${tr('zh-Hant', 'service.signIn.locked', { until: '' })}`));
  }
  // Ana Lei, at her own screen, is refused with her right PIN: the account is locked.
  const ana = await context.newPage();
  await ana.goto(service);
  await waitForEvent(ana, 'snapshot:service');
  await typeOnPad(ana, 'signin', SUP.staff);
  await typeOnPad(ana, 'signin', SUP.pin);
  await expect.poll(() => texts(ana)).toContain(tr('zh-Hant', 'service.signIn.locked', { until: '' }).trim());

  // Carla Wong, another supervisor, signs in: the Status page lists the lock and offers Unlock.
  await page.goto(service);
  await waitForEvent(page, 'snapshot:service');
  await signIn(page, SUP2);
  await pressUntilShown(page, 'language-en', tr('en', 'service.field.locked'));
  await expect.poll(() => texts(page)).toContain(`${SUP.name} (${SUP.staff}): locked until`);
  await pressWhenShown(page, `act-account-unlock-${SUP.staff}`);
  await expect.poll(() => texts(page)).toContain(tr('en', 'service.done.accountUnlock', { name: `${SUP.name} (${SUP.staff})` }));
  await expect.poll(() => texts(page)).not.toContain(tr('en', 'service.field.locked'));

  // Journalled: a service.account entry, action unlock, naming Carla Wong.
  const unlocks = accountEntries(serviceKiosk.dataDir).filter((e) => e.action === 'unlock');
  expect(unlocks).toHaveLength(1);
  expect(unlocks[0]?.staff).toBe(SUP.staff);
  expect(unlocks[0]?.by).toContain(SUP2.name);

  // Ana Lei signs in with her PIN at once.
  await signIn(ana, SUP);
  expect(pageErrors).toEqual([]);
});
