import type { Receipt } from './receipts.js';
import { signRequest, SIGNATURE_HEADERS, type Credentials } from './sign.js';
import { checkAnswer, HeadReceipt, ReceiptKey } from './wire.js';

/**
 * Asks the upstream directly (`etg ledger verify --upstream URL`): its receipt key (`GET
 * /v1/receipt-key`, over the URL's TLS) and a receipt of the head it holds of this terminal now
 * (`POST /v1/head`, signed with the terminal's credentials). Neither depends on anything kept on
 * the cabinet but the credentials, which a forger cannot use to make the upstream sign another head.
 */
export async function askUpstreamHead(
  url: string,
  credentials: Credentials,
  o: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<{ receipt: Receipt; publicKey: string }> {
  const base = new URL(url);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname);
  if (base.protocol !== 'https:' && !(base.protocol === 'http:' && loopback))
    throw new Error(`upstream must be https:// (plain http only on loopback), not ${url}`);
  const root = url.replace(/\/+$/, '');
  const f = o.fetch ?? globalThis.fetch.bind(globalThis);
  const signal = AbortSignal.timeout(o.timeoutMs ?? 15_000);
  const keyRes = await f(`${root}/v1/receipt-key`, { signal });
  if (keyRes.status !== 200) throw new Error(`the upstream answered /v1/receipt-key with ${keyRes.status}`);
  const key = checkAnswer(ReceiptKey, 'receipt key', await keyRes.json());
  const body = JSON.stringify({ terminalId: credentials.terminalId });
  const ts = Date.now();
  const sig = signRequest(Buffer.from(credentials.key, 'base64'), 'POST', '/v1/head', credentials.terminalId, ts, body);
  const res = await f(`${root}/v1/head`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADERS.terminal]: credentials.terminalId,
      [SIGNATURE_HEADERS.timestamp]: String(ts),
      [SIGNATURE_HEADERS.signature]: sig,
    },
    body,
    signal,
  });
  if (res.status !== 200) throw new Error(`the upstream answered /v1/head with ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const head = checkAnswer(HeadReceipt, 'head receipt', await res.json());
  return { receipt: head.receipt, publicKey: key.publicKey };
}
