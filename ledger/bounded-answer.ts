// An upstream's answer read to a bound: the sync client's and the ticket authority's. Whatever
// answers at the upstream's address may send a body without end; only a timeout bounded it before.

/**
 * The most an upstream's answer is read to. The largest honest one is the configuration orders': at
 * most 50 orders of at most 16,384 characters each (host/floor/remote-config.ts), each at most 3
 * bytes a character once in the answer's JSON, some 2.5 MB; an acknowledgement is a few hundred bytes.
 */
export const ANSWER_BYTES_MAX = 4 * 1024 * 1024;

/** An upstream's answer longer than its bound: not read past it. */
export class AnswerTooLarge extends Error {
  constructor(path: string, max: number) {
    super(`upstream answered ${path} with more than ${max} bytes: not read`);
    this.name = 'AnswerTooLarge';
  }
}

/** A response's body as text, read to `max` bytes at most (its said length checked first). */
export async function boundedText(res: Response, path: string, max = ANSWER_BYTES_MAX): Promise<string> {
  const said = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body?.getReader();
  if (said > max) {
    await reader?.cancel();
    throw new AnswerTooLarge(path, max);
  }
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel();
      throw new AnswerTooLarge(path, max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
