import { z } from 'zod';
import { chainHash, genesisHash, sha256Hex } from './canonical.js';
import { connectionOf, rowToEntry, type JournalRow, type Ledger } from './ledger.js';
import { ruleRecordAt } from './journal-queries.js';
import { syncAnchor } from './outbox.js';
import { assembleEvidence, type EvidenceBundle } from '../terms/round-evidence.js';

export type { EvidenceBundle } from '../terms/round-evidence.js';

/**
 * A round's evidence bundle from this kiosk's journal: the round's entries (the journal's round
 * index), the chain between them, the rules record in force, the head and the upstream's
 * acknowledgement, assembled by the one assembly the upstream uses too (terms/round-evidence.ts).
 */
export function evidenceBundle(ledger: Ledger, roundId: string, now = new Date()): EvidenceBundle | undefined {
  const rows = connectionOf(ledger).prepare('SELECT * FROM journal WHERE round_id = ? ORDER BY seq').all(roundId) as JournalRow[];
  const anchor = syncAnchor(ledger);
  return assembleEvidence({
    terminalId: ledger.terminalId,
    roundId,
    entries: rows.map(rowToEntry),
    chain: (first, last) => ledger.entries(first, last),
    rulesAt: (seq) => ruleRecordAt(ledger, seq)?.entry,
    head: ledger.headOf(),
    upstreamAck: anchor.ackedSeq > 0 ? { seq: anchor.ackedSeq, hash: anchor.ackedHash } : null,
    now,
  });
}

/** Checks a bundle on its own (no database): bodies hash to their links, the links chain. */
export function verifyEvidence(bundle: EvidenceBundle): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  let prev = bundle.proof.prevHash;
  let expect = bundle.proof.links[0]?.[0] ?? 0;
  const bySeq = new Map<number, [number, string, string]>();
  for (const link of bundle.proof.links) {
    const [seq, content, hash] = link;
    if (seq !== expect) problems.push(`proof skips to seq ${seq}`);
    expect = seq + 1;
    if (chainHash(prev, content) !== hash) problems.push(`link ${seq} does not chain`);
    prev = hash;
    bySeq.set(seq, link);
  }
  if (bundle.proof.links[0]?.[0] === 1 && bundle.proof.prevHash !== genesisHash(bundle.terminalId)) problems.push('seq 1 does not start at genesis');
  for (const e of bundle.entries) {
    const link = bySeq.get(e.seq);
    if (!link) problems.push(`entry ${e.seq} is outside the proof`);
    else if (link[1] !== sha256Hex(e.body) || link[2] !== e.hash) problems.push(`entry ${e.seq} does not match its link`);
    const body = JSON.parse(e.body) as { terminal?: string; seq?: number; payload?: { roundId?: string } };
    if (body.terminal !== bundle.terminalId || body.seq !== e.seq) problems.push(`entry ${e.seq} names another terminal or seq`);
    if (body.payload?.roundId !== bundle.round.roundId) problems.push(`entry ${e.seq} is not of round ${bundle.round.roundId}`);
  }
  if (bundle.rules) problems.push(...ruleProblems(bundle.rules, bundle));
  if (bundle.head.seq === (bundle.proof.links.at(-1)?.[0] ?? -1) && bundle.head.hash !== prev) problems.push('head hash does not match the proof');
  return { ok: problems.length === 0, problems };
}

const RuleRecordHead = z.object({ terminal: z.string(), seq: z.number(), type: z.literal('rules.record') });

/** The rule record's own link: its body hashes to it, it chains from the hash before it, it is this terminal's record from before the round. */
function ruleProblems(r: NonNullable<EvidenceBundle['rules']>, bundle: EvidenceBundle): string[] {
  const out: string[] = [];
  if (sha256Hex(r.body) !== r.contentHash || chainHash(r.prevHash, r.contentHash) !== r.hash) out.push(`rule record ${r.seq} does not match its link`);
  const body = RuleRecordHead.safeParse(JSON.parse(r.body));
  if (!body.success || body.data.terminal !== bundle.terminalId || body.data.seq !== r.seq)
    out.push(`rule record ${r.seq} is not this terminal's rules.record`);
  if (r.seq > (bundle.proof.links[0]?.[0] ?? 0)) out.push(`rule record ${r.seq} is after the round began`);
  return out;
}
