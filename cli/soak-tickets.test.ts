import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { soak } from './soak/run-cli.js';

interface Count {
  count: number;
  amount: number;
}

describe('soak CLI with tickets (issue 47)', () => {
  it('a short soak with tickets: a ticket printed at one station is redeemed at another, and the money check counts it', { timeout: 360_000 }, async () => {
    // 40 rounds: the players redeem a ticket printed elsewhere only from about the 16th round on
    // (16 rounds on a quiet machine ended with 2 printed, 1 redemption in flight, 0 paid; 24 paid 5
    // then, but a CI run on a fresh clone on 27 November played its 24 in 24 s and ended with 2
    // printed, 1 in print, 1 redemption in flight and 0 paid: the round count, not the clock, ends
    // a soak, and a quick machine plays the rounds before the first redemption is through).
    const r = await soak(['--game', 'war', '--rounds', '40', '--stations', '3', '--seed', '3', '--tickets', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim()) as {
      conserved: boolean;
      ledgerVerified: boolean;
      creditsIn: number;
      tickets: { printed: Count; redeemed: Count; returned: number; pendingRedemptions: number };
      upstreamAlarms: Record<string, number>;
    };
    assert.equal(out.conserved, true);
    // An honest table raises none but the refusals its players earn (paid copies presented on purpose).
    assert.deepEqual(
      Object.keys(out.upstreamAlarms).filter((k) => k !== 'ticket-refused'),
      [],
    );
    assert.equal(out.ledgerVerified, true);
    assert.ok(out.tickets.printed.count >= 1, `printed ${JSON.stringify(out.tickets)}`);
    // The point of the soak's tickets: one went from a printer, through a player's hand, into another station's acceptor and was paid.
    assert.ok(out.tickets.redeemed.count >= 1, `redeemed ${JSON.stringify(out.tickets)}`);
    assert.ok(out.tickets.redeemed.amount > 0 && Number.isInteger(out.tickets.redeemed.amount));
  });

  it(
    'tickets with kills: each kill lands while a ticket prints, the attendant settles what the restart cannot judge, and the table plays on',
    { timeout: 360_000 },
    async () => {
      // A soak with tickets killed every 11 rounds stopped in 3 of 4 runs on 29 November: a kill
      // while a ticket printed left it held after the restart (the printer cannot say), its station
      // locked for a person; nobody came, and once every station was locked no round closed.
      const r = await soak(['--game', 'war', '--rounds', '36', '--stations', '3', '--seed', '5', '--tickets', '--kill-every', '9', '--json']);
      assert.equal(r.code, 0, r.stderr || r.stdout);
      const out = JSON.parse(r.stdout.trim()) as {
        rounds: number;
        restarts: number;
        killsMidPrint: number;
        conserved: boolean;
        ledgerVerified: boolean;
        tickets: { settledByHand: Count; inPrint: Count };
      };
      // At least the rounds asked for: the table plays on while the last host waits for its tickets to end.
      assert.ok(out.rounds >= 36, `rounds ${out.rounds}`);
      assert.equal(out.conserved, true);
      assert.equal(out.ledgerVerified, true);
      assert.ok(out.killsMidPrint >= 1, `no kill landed while a ticket printed: ${r.stdout}`);
      // Each such kill leaves a held ticket; the simulated attendant settles it as the paper says.
      assert.ok(out.tickets.settledByHand.count >= 1, `no held ticket was settled: ${r.stdout}`);
    },
  );
});
