// Electron main: bundled by scripts/build-electron.ts into dist/electron/main.cjs. Everything is in
// kiosk-main.ts, which takes Electron's API as an argument so that its handlers run under test.
import * as electron from 'electron';
import { startKiosk } from './kiosk-main.js';

const kiosk = startKiosk(electron, {
  argv: process.argv.slice(electron.app.isPackaged ? 1 : 2),
  here: __dirname, // dist/electron (CommonJS bundle)
  // What nothing handles here is logged fatal in host.log and the kiosk relaunches (not Electron's own dialog).
  lastResort: true,
});
if (!kiosk) process.exit(0);
