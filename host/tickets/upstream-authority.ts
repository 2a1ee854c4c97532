import { boundedText } from '../../ledger/bounded-answer.js';
import { signRequest, SIGNATURE_HEADERS, type Credentials } from '../../ledger/sign.js';
import type { RequestId, TicketTerms } from '../../terms/ticket-terms.js';
import type { AuthorityAck, RedeemAnswer, RedeemRequest, TicketAt, TicketAuthority } from './authority.js';
import { MachineAnswer, RedeemAnswer as RedeemWire, Refusal, TicketOk } from './wire.js';

// The upstream as the validation authority, over HTTP (docs/tito.md; the routes: docs/upstream.md,
// "Tickets"). Every request is signed with the table's own upstream credentials, the ones its
// ledger syncs with, over its own path; each attempt is signed afresh. Nothing here retries: an
// answer that does not come within `timeoutMs`, is not a 200, or does not fit the contract is
// `offline` (a redemption) or `{ ok: false }` (a word). The guard (host/tickets/guard.ts) decides
// what follows; the table's journal carries every word again when it syncs.

export interface UpstreamAuthorityOptions {
  /** The upstream's base URL (https://, plain http only on loopback, as for the ledger's sync). */
  readonly url: string;
  readonly credentials: Credentials;
  /** How long one request may take before it is abandoned (default 5 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** The upstream's time, from its refusal of a request as `clock-skew`, and how long that answer took (host/tickets/floor-clock.ts). */
  readonly onServerTime?: (serverTime: string, rttMs: number) => void;
}

/** The most a ticket answer is read to: the largest honest one (an approval) is a few hundred bytes. */
const ANSWER_BYTES_MAX = 64 * 1024;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly offline: boolean; readonly detail: string };

export class UpstreamAuthority implements TicketAuthority {
  private readonly url: string;
  private readonly key: Buffer;
  private readonly terminalId: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly onServerTime: ((serverTime: string, rttMs: number) => void) | undefined;

  constructor(o: UpstreamAuthorityOptions) {
    const url = new URL(o.url);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
      throw new Error(`upstream must be https:// (plain http only on loopback), not ${o.url}`);
    this.url = o.url.replace(/\/+$/, '');
    this.key = Buffer.from(o.credentials.key, 'base64');
    this.terminalId = o.credentials.terminalId;
    this.timeoutMs = o.timeoutMs ?? 5000;
    this.fetch = o.fetch ?? globalThis.fetch.bind(globalThis);
    this.now = o.now ?? Date.now;
    this.onServerTime = o.onServerTime;
  }

  /** One signed POST: the JSON of a 200, or why not (offline: no answer or not one; else refused). */
  private async post(path: string, payload: Record<string, unknown>): Promise<Outcome> {
    const body = JSON.stringify({ terminalId: this.terminalId, ...payload });
    const ts = this.now();
    const sent = performance.now();
    try {
      const res = await this.fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADERS.terminal]: this.terminalId,
          [SIGNATURE_HEADERS.timestamp]: String(ts),
          [SIGNATURE_HEADERS.signature]: signRequest(this.key, 'POST', path, this.terminalId, ts, body),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        // Never followed: a 307/308 would carry the signed request to wherever it points, and an
        // approval from there (it read the request, so it can echo it) would be paid.
        redirect: 'manual',
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        return { ok: false, offline: true, detail: `${res.status} a redirect, not followed` };
      }
      const json = parsed(await boundedText(res, path, ANSWER_BYTES_MAX));
      if (res.status === 200) return { ok: true, value: json };
      const refusal = Refusal.safeParse(json);
      const said = json as { serverTime?: unknown } | null;
      if (res.status === 401 && refusal.success && refusal.data.error === 'clock-skew' && typeof said?.serverTime === 'string')
        this.onServerTime?.(said.serverTime, performance.now() - sent);
      const detail = `${res.status} ${refusal.success ? `${refusal.data.error}${refusal.data.message ? `: ${refusal.data.message}` : ''}` : '(no refusal body)'}`;
      // A 409 is the authority's word about this ticket; anything else (401, 5xx, a proxy's page) is no answer.
      return { ok: false, offline: res.status !== 409, detail };
    } catch (e) {
      return { ok: false, offline: true, detail: e instanceof Error ? e.message : String(e) };
    }
  }

  private async word(path: string, payload: Record<string, unknown>): Promise<AuthorityAck> {
    const r = await this.post(path, payload);
    if (!r.ok) return { ok: false, reason: r.offline ? 'offline' : 'refused', detail: r.detail };
    return TicketOk.safeParse(r.value).success ? { ok: true } : { ok: false, reason: 'offline', detail: 'the answer does not fit the contract' };
  }

  async machineId(proposed?: number) {
    const r = await this.post('/v1/tickets/machine', proposed === undefined ? {} : { proposed });
    if (!r.ok) return { ok: false as const, detail: r.detail };
    const m = MachineAnswer.safeParse(r.value);
    return m.success ? { ok: true as const, machineId: m.data.machineId } : { ok: false as const, detail: 'the answer does not fit the contract' };
  }

  registerIssue(terms: TicketTerms): Promise<AuthorityAck> {
    return this.word('/v1/tickets/issue', { ticket: terms });
  }

  registerPrinted(t: TicketAt): Promise<AuthorityAck> {
    return this.word('/v1/tickets/printed', { validation: t.validation, station: t.station });
  }

  registerVoid(t: TicketAt): Promise<AuthorityAck> {
    return this.word('/v1/tickets/void', { validation: t.validation, station: t.station });
  }

  async redeem(q: RedeemRequest): Promise<RedeemAnswer> {
    const r = await this.post('/v1/tickets/redeem', {
      requestId: q.requestId,
      validation: q.validation,
      station: q.station,
      currency: q.currency,
      limit: q.limit,
    });
    const offline: RedeemAnswer = { kind: 'refused', requestId: q.requestId, reason: 'offline' };
    if (!r.ok) return offline;
    const a = RedeemWire.safeParse(r.value);
    return a.success ? a.data : offline;
  }

  confirm(requestId: RequestId, t: TicketAt): Promise<AuthorityAck> {
    return this.word('/v1/tickets/confirm', { requestId, validation: t.validation, station: t.station });
  }

  cancel(requestId: RequestId, t: TicketAt): Promise<AuthorityAck> {
    return this.word('/v1/tickets/cancel', { requestId, validation: t.validation, station: t.station });
  }
}
