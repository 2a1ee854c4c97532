import { boundedText } from './bounded-answer.js';
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
  const keyRes = await f(`${root}/v1/receipt-key`, { signal, redirect: 'manual' });
  const key = checkAnswer(ReceiptKey, 'receipt key', await answerOf(keyRes, '/v1/receipt-key'));
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
    redirect: 'manual',
  });
  const head = checkAnswer(HeadReceipt, 'head receipt', await answerOf(res, '/v1/head'));
  return { receipt: head.receipt, publicKey: key.publicKey };
}

/**
 * A 200's JSON, read to the sync client's bound (ledger/bounded-answer.ts), else a throw. A redirect
 * is never followed, as the sync client follows none: the key and the receipt would come from
 * wherever it pointed (plain http too), and the signed request would go there.
 */
async function answerOf(res: Response, path: string): Promise<unknown> {
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    const to = (res.headers.get('location') ?? '').slice(0, 200);
    throw new Error(`the upstream answered ${path} with ${res.status}, a redirect${to ? ` to ${to}` : ''}: not followed`);
  }
  const text = await boundedText(res, path);
  if (res.status !== 200) throw new Error(`the upstream answered ${path} with ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`the upstream answered ${path} with something that is not JSON`);
  }
}
