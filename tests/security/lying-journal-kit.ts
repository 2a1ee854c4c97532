// Test-only: a table with its real credentials that sends whatever journal it likes, over the
// upstream's real signed routes: each body chained and signed as an honest table's would be, its
// content the liar's. What an upstream must survive from a table whose key leaked.
import { signRequest } from '../../ledger/index.js';
import { enrolTerminal, type Db } from '../../upstream/index.js';
import { chainHash, genesisHash, sha256Hex } from '../../upstream/chain.js';

interface App {
  inject(o: { method: 'POST'; url: string; payload: string; headers: Record<string, string> }): Promise<{ statusCode: number; body: string }>;
}

/** An entry as the liar writes it: any type, time, payload, meters and credits. */
export interface LyingEntry {
  type: string;
  ts: string;
  payload?: unknown;
  meters?: unknown;
  credits?: unknown;
  /** The body's text as the liar writes it, from JSON.stringify's (a number written `5000.0`, which JSON.parse reads as 5000). */
  text?: (body: string) => string;
}

export interface LyingTable {
  /** Sends the entries as one batch after the last one taken; the upstream's answer. */
  send(entries: readonly LyingEntry[]): Promise<{ statusCode: number; body: string }>;
  /** Sends a heartbeat with this health; the upstream's answer. */
  heartbeat(health: unknown): Promise<{ statusCode: number; body: string }>;
}

/** An entry's body text as the liar writes it, entry `seq` of `terminal`'s journal. */
export function lyingBody(terminal: string, seq: number, e: LyingEntry): string {
  const body = JSON.stringify({
    terminal,
    seq,
    ts: e.ts,
    type: e.type,
    txId: null,
    payload: 'payload' in e ? e.payload : {},
    meters: e.meters ?? [],
    ...(e.credits === undefined ? {} : { credits: e.credits }),
  });
  return e.text ? e.text(body) : body;
}

export async function lyingTable(app: App, db: Db, terminal: string): Promise<LyingTable> {
  const key = Buffer.from((await enrolTerminal(db, terminal)).key, 'base64');
  let seq = 0;
  let prev = genesisHash(terminal);
  let stamp = Date.now();
  const signed = (url: string, payload: string) => {
    const ts = ++stamp;
    return app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        'content-type': 'application/json',
        'x-etg-terminal': terminal,
        'x-etg-timestamp': String(ts),
        'x-etg-signature': signRequest(key, 'POST', url, terminal, ts, payload),
      },
    });
  };
  return {
    heartbeat: (health) => signed('/v1/heartbeat', JSON.stringify({ terminalId: terminal, at: new Date().toISOString(), health })),
    async send(entries) {
      const from = { seq, prev };
      const out = entries.map((e) => {
        seq += 1;
        const body = lyingBody(terminal, seq, e);
        prev = chainHash(prev, sha256Hex(body));
        return { seq, hash: prev, body };
      });
      const r = await signed('/v1/ingest', JSON.stringify({ terminalId: terminal, prevHash: from.prev, entries: out }));
      // Refused: the upstream's head did not move, nor does the liar's.
      if (r.statusCode !== 200) ({ seq, prev } = from);
      return r;
    },
  };
}
