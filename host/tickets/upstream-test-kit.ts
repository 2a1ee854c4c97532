// The upstream as tests of the table's tickets fake it: its one answer to "which id is this table's",
// every word about a ticket taken, every redemption refused offline. Shared by the tests of the id
// kept in the data folder (floor-id.test.ts) and of cash-out to a ticket (host/floor/ticket-out.test.ts),
// which each wrote their own until 7 December.
import type { TicketAuthority } from './authority.js';

/** `answer`: the id the upstream gives (null: out of reach), or a function read at each question. */
export function upstreamAnswering(answer: number | null | (() => number | null)): TicketAuthority {
  return {
    machineId: async () => {
      const a = typeof answer === 'function' ? answer() : answer;
      return a === null ? { ok: false, detail: 'offline' } : { ok: true, machineId: a };
    },
    registerIssue: async () => ({ ok: true }),
    registerPrinted: async () => ({ ok: true }),
    registerVoid: async () => ({ ok: true }),
    redeem: async (q) => ({ kind: 'refused', requestId: q.requestId, reason: 'offline' }),
    confirm: async () => ({ ok: true }),
    cancel: async () => ({ ok: true }),
  };
}
