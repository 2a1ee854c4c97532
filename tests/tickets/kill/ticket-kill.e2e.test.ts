import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeTrial, runTicketedTrial, type KillPoint } from './campaign.js';

// The quick slice of the ticket kill campaign (./campaign.ts; the whole of it, every kill point:
// `npm run fuzz -- --only tickets-sigkill`): a real host process SIGKILLed once the ticket's issue
// is journalled and before the print command, and once the acceptor has stacked a ticket whose
// credit is not yet journalled; restarted on its data folder, the ticket ends once, the money is
// where it was put, the meters and the upstream's row agree with the journal. A trial whose cash-out
// became a handpay (the host found the printer or its number not ready in time on a loaded machine:
// a CI run of 30 November) tests nothing and is run again, at most three in all; three in a row fail.

const SLICE: readonly { point: KillPoint; ended: string }[] = [
  // The print command never left the host: the restart asks the printer, which never printed it; the credit goes back.
  { point: 'issue-journalled', ended: 'voided' },
  // The acceptor stacked it: the restart finds it stacked (not back in the player's hand) and credits it once.
  { point: 'stacked-not-credited', ended: 'redeemed' },
];

describe('tickets: SIGKILL of a real table host at journal steps of a ticket’s issue and redemption', () => {
  for (const { point, ended } of SLICE)
    it(`killed at ${point}: 0 lost, 0 paid twice, never printed and given back; meters and the upstream agree`, async () => {
      // A trial whose cash-out became a handpay tested nothing: run again, at most three in all (said on the test's output).
      const r = await runTicketedTrial(point, 3, (s) => console.log(s));
      assert.deepEqual(r.violations, [], describeTrial(r));
      assert.equal(r.ended, ended, describeTrial(r));
    });
});
