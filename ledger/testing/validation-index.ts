// For the 0x58 lookup's benchmark (bench/sas-validation.bench.ts): the query as it ran before
// migration 9 is the baseline, so the benchmark takes the index away and makes it again on the
// same ledger. Test-only: a running kiosk never drops an index.
import { connectionOf, type Ledger } from '../ledger.js';
import { CREATE_VALIDATION_INDEX } from '../migrations.js';

/** Drops migration 9's `journal_validation` index: the lookup scans as before the migration. */
export function dropValidationIndex(ledger: Ledger): void {
  connectionOf(ledger).exec('DROP INDEX journal_validation');
}

/** Makes migration 9's `journal_validation` index again, as the migration made it. */
export function makeValidationIndex(ledger: Ledger): void {
  connectionOf(ledger).exec(CREATE_VALIDATION_INDEX);
}
