// Test-only: an edge that takes station 101 at once, for the tests of one station's session at an
// edge (host/edges/edge-session.ts), each faking the host behind it by how its commands are answered.
import type { Edge } from './edge.js';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

const NONCE = 'n'.repeat(24);
const PROOF = 'p'.repeat(86);

/** Station 101's hello with the nonce the edge below gives and a proof it takes. */
export const HELLO_101 = JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: 101, nonce: NONCE, proof: PROOF });

/**
 * An edge that gives one nonce, takes every proof and attachment, holds whatever is asked, and
 * answers each command by `forward`; `resend` is told each part asked for whole.
 */
export function welcomingEdge(forward: (station: number, text: string) => Promise<string | null>, resend: () => void = () => undefined): Edge {
  const edge = {
    nonce: async () => NONCE,
    giveBack: () => undefined,
    verify: () => true,
    attach: async () => true,
    hold: () => undefined,
    release: () => undefined,
    resend,
    forward,
  };
  // Only the parts a session uses: a whole Edge needs a NATS connection.
  return edge as unknown as Edge;
}
