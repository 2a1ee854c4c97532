import type { Logger } from 'pino';
import { NOTE_FACE_VALUES } from '../../../hardware/billacceptor/notes.js';
import type { Ledger } from '../../../ledger/index.js';
import type { Said } from '../../../locales/said.js';
import type { TableConfig } from '../../config/table-config.js';
import { CreditRule } from './credit-rule.js';

/**
 * The credit rule of a table: its currency, and the notes its configuration takes now (read at
 * each note, so a change made in service mode holds from the next escrow). `fault` raises the
 * station's acceptor fault (the host: `bill-cheat` through its tilt manager).
 */
export function tableCreditRule(d: {
  config: Pick<TableConfig, 'currency' | 'denominations' | 'creditLimit'>;
  ledger: Ledger;
  log: Logger;
  fault: (station: number, say: Said) => void;
  /** A note went back at the station's credit limit (host/devices/credit-rule/credit-limit.ts). */
  atCreditLimit?: (station: number) => void;
}): CreditRule {
  const { config } = d;
  return new CreditRule({
    ledger: d.ledger,
    log: d.log,
    currency: config.currency,
    accepted: () => config.denominations ?? NOTE_FACE_VALUES[config.currency],
    fault: d.fault,
    // Read at each note: a configuration loaded with a lower limit holds from the next escrow.
    creditLimit: () => config.creditLimit,
    ...(d.atCreditLimit ? { atCreditLimit: d.atCreditLimit } : {}),
  });
}
