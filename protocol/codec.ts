import type { z } from 'zod';
import { refusalKey } from './refusals.js';
import { MAX_HOST_MESSAGE_BYTES, MAX_MESSAGE_BYTES, utf8ByteLength } from './limits.js';
import { ClientMessage, hostMessageFor, type ErrorCode, type HostMessage, type ProtocolError } from './messages.js';
import type { ViewName } from './views.js';

export type Decoded<T> = { ok: true; message: T } | { ok: false; error: ProtocolError };

export function protocolError(
  code: ErrorCode,
  detail: string,
  extra: Partial<Pick<ProtocolError, 'ref' | 'view' | 'currentVersion' | 'refusal'>> = {},
): ProtocolError {
  const messageKey = extra.refusal ? refusalKey(extra.refusal) : `errors.${code}`;
  return { type: 'error', code, messageKey, detail: detail.slice(0, 2000), ...extra };
}

function decode<T>(raw: unknown, check: (json: unknown) => z.ZodSafeParseResult<T>, maxBytes: number): Decoded<T> {
  if (typeof raw !== 'string') {
    return { ok: false, error: protocolError('invalid-message', 'binary frames are not part of the protocol') };
  }
  const bytes = utf8ByteLength(raw);
  if (bytes > maxBytes) {
    return { ok: false, error: protocolError('oversized', `message of ${bytes} bytes exceeds ${maxBytes}`) };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: protocolError('invalid-json', e instanceof Error ? e.message : String(e)) };
  }
  const parsed = check(json);
  if (!parsed.success) {
    const ref = typeof json === 'object' && json !== null && 'id' in json && typeof json.id === 'string' ? json.id.slice(0, 64) : undefined;
    const detail = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    return { ok: false, error: protocolError('invalid-message', detail, ref ? { ref } : {}) };
  }
  return { ok: true, message: parsed.data };
}

/** Host side: validate a frame from a screen. Never throws. */
export function decodeClientMessage(raw: unknown): Decoded<ClientMessage> {
  return decode(raw, (json) => ClientMessage.safeParse(json), MAX_MESSAGE_BYTES);
}

/**
 * Screen side: validate a frame from the host. Never throws. A screen names its view: a snapshot
 * of another kind of view is then refused, and the other kinds' schemas are never built; only the
 * schemas of the message types that come are (`hostMessageFor`). Without a view, any view's
 * (tools, tests, the station agent's relay).
 */
export function decodeHostMessage(raw: unknown, view?: ViewName): Decoded<HostMessage> {
  return decode(raw, hostMessageFor(view), MAX_HOST_MESSAGE_BYTES);
}

export function encode(message: ClientMessage | HostMessage): string {
  return JSON.stringify(message);
}
