// Test-only: the floor's ticket register as the upstream behaves, for the ticket-in tests of this folder.
import type { TicketAuthority } from '../tickets/authority.js';

/**
 * An authority as the floor's register behaves: a ticket approved once is pending for that
 * attempt (refused `pending-elsewhere` meanwhile), confirmed it is paid, cancelled it is
 * redeemable again. Every word it is told is recorded.
 */
export function ticketRegister(amount = 2_500): TicketAuthority & { words: string[]; state: Map<string, string> } {
  const state = new Map<string, string>();
  const pendingFor = new Map<string, string>();
  const words: string[] = [];
  const ok = async () => ({ ok: true }) as const;
  return {
    words,
    state,
    machineId: async () => ({ ok: true, machineId: 1 }),
    registerIssue: ok,
    registerPrinted: ok,
    registerVoid: ok,
    redeem: async (r) => {
      words.push(`redeem ${r.requestId}`);
      const s = state.get(r.validation) ?? 'printed';
      if (s === 'redeemed') return { kind: 'refused', requestId: r.requestId, reason: 'already-paid' };
      if (s === 'pending') return { kind: 'refused', requestId: r.requestId, reason: 'pending-elsewhere' };
      state.set(r.validation, 'pending');
      pendingFor.set(r.validation, r.requestId);
      return { kind: 'approved', requestId: r.requestId, validation: r.validation, amount, currency: r.currency };
    },
    confirm: async (rid, t) => {
      words.push(`confirm ${rid}`);
      if (pendingFor.get(t.validation) === rid) state.set(t.validation, 'redeemed');
      return { ok: true };
    },
    cancel: async (rid, t) => {
      words.push(`cancel ${rid}`);
      if (pendingFor.get(t.validation) === rid) state.set(t.validation, 'printed');
      return { ok: true };
    },
  };
}
