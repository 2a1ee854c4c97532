// The SAS links of a test's table without the rest of the host: the dependencies a start needs
// that no such test looks at (no handpay, no round, no cash-out refusal, an acceptor whose inhibit
// goes nowhere), so each test names only its configuration, journal and faults.
import type pino from 'pino';
import type { TableConfig } from '../config/table-config.js';
import type { Ledger } from '../../ledger/index.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import { SasLinks, type SasLinksDeps } from './sas-links.js';

export function quietSasLinks(d: {
  config: TableConfig;
  ledger: Ledger;
  tilts: TiltManager;
  log: pino.Logger;
  dir: string;
  timing?: SasLinksDeps['timing'];
}): SasLinks {
  return new SasLinks({
    config: d.config,
    ledger: d.ledger,
    tilts: d.tilts,
    billAcceptors: { setInhibited: () => {} },
    log: d.log,
    pendingHandpay: () => null,
    roundOpen: () => false,
    cashOutRefusal: () => null,
    program: { root: d.dir, files: [] },
    dataDir: d.dir,
    ...(d.timing ? { timing: d.timing } : {}),
  });
}
