// Every rule profile through many shoes, with kills (issue 52 item 1): a table that stops at a new
// shoe fails the suite. A Portugal table once stopped at its first new shoe (the simulated dealer
// burnt a second card, an extra card that held the table for good) and nothing in the suite
// crossed a Portugal shoe change. Each profile plays the soak (`etg soak`, cli/soak.ts) with short
// shoes (`--cut-card-at`: the simulated shoe's cut card a few cards in, so that a shoe ends every
// round or two) and a SIGKILL every few rounds, then the money, the ledger and the shoe changes are
// checked from the journal. A table that stops closing rounds fails the soak (no round for 60 s).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { bundledChild } from '../children/bundle.js';

const root = path.resolve(import.meta.dirname, '../..');

/** A table to soak: its game, rule profile and what else the soak takes for it. */
export interface SoakProfile {
  name: string;
  args: string[];
  /** Cards before the simulated shoe's cut card: past the shoe-start burns, a coup or two in. */
  cutCardAt: number;
}

export const PROFILES = {
  'blackjack macau-2009': { name: 'blackjack macau-2009', args: ['--game', 'blackjack', '--rules', 'macau-2009'], cutCardAt: 14 },
  'blackjack macau-2004': { name: 'blackjack macau-2004', args: ['--game', 'blackjack', '--rules', 'macau-2004'], cutCardAt: 14 },
  'blackjack portugal-2001': { name: 'blackjack portugal-2001', args: ['--game', 'blackjack', '--rules', 'portugal-2001'], cutCardAt: 8 },
  'blackjack portugal-2001 with the jackpot': { name: 'blackjack portugal-2001 with the jackpot', args: ['--jackpot'], cutCardAt: 8 },
  // Art. 2 n.1's burn turns the first card and burns its value: up to eleven cards before a coup.
  'baccarat macau-commission': { name: 'baccarat macau-commission', args: ['--game', 'baccarat', '--rules', 'macau-commission'], cutCardAt: 14 },
  'baccarat macau-no-commission': {
    name: 'baccarat macau-no-commission',
    args: ['--game', 'baccarat', '--rules', 'macau-no-commission', '--authorisation', 'DICJ-TEST/35'],
    cutCardAt: 14,
  },
  war: { name: 'war', args: ['--game', 'war'], cutCardAt: 4 },
} satisfies Record<string, SoakProfile>;

const SoakOut = z.object({
  rounds: z.number().int(),
  restarts: z.number().int(),
  conserved: z.boolean(),
  ledgerVerified: z.boolean(),
  shoeChanges: z.number().int(),
  holds: z.number().int(),
  jackpot: z.object({ chips: z.number().int(), conserved: z.boolean() }).optional(),
});

/**
 * Runs the soak CLI to its end: exit code, its one JSON line, stderr. From `etg` bundled (the rule
 * in docs/testing.md): the soak starts a host per kill, each from the script the soak runs from.
 */
async function runSoak(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const etg = await bundledChild('tests/children/etg-entry.ts');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [etg, 'soak', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Soaks `p` for `rounds` rounds, killed every `killEvery`, and checks: exit 0, the money conserved,
 * the ledger verified, at least three shoes finished and replaced in play, at least one kill, and
 * no hold (the simulated dealer draws only what the table asks for).
 */
export async function soakThroughShoes(p: SoakProfile, o: { rounds?: number; killEvery?: number; seed?: number } = {}): Promise<z.infer<typeof SoakOut>> {
  const rounds = o.rounds ?? 10;
  const args = [
    ...p.args,
    '--rounds',
    String(rounds),
    '--stations',
    '3',
    '--seed',
    String(o.seed ?? 52),
    '--kill-every',
    String(o.killEvery ?? 4),
    '--cut-card-at',
    String(p.cutCardAt),
    '--json',
  ];
  const r = await runSoak(args);
  assert.equal(r.code, 0, `${p.name}: etg soak ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  const out = SoakOut.parse(JSON.parse(r.stdout.trim()));
  assert.ok(out.rounds >= rounds, `${p.name}: ${out.rounds} rounds`);
  assert.equal(out.conserved, true, `${p.name}: the money is conserved`);
  assert.equal(out.ledgerVerified, true, `${p.name}: the ledger verifies`);
  assert.ok(out.restarts >= 1, `${p.name}: killed and restarted (${out.restarts})`);
  assert.ok(out.shoeChanges >= 3, `${p.name}: ${out.shoeChanges} shoe changes, not three`);
  assert.equal(out.holds, 0, `${p.name}: the table went on hold ${out.holds} times`);
  if (out.jackpot) assert.ok(out.jackpot.conserved && out.jackpot.chips > 0, `${p.name}: the jackpot's pools and hits`);
  return out;
}
