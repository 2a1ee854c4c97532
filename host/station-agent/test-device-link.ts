import pino from 'pino';
import WebSocket from 'ws';
import type { Clock } from '../../hardware/clock.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { DeviceLink, type DeviceLinkOptions } from './device-link.js';

/**
 * A relay-mode device link to a test host on `port`: its warnings kept (each JSON line), and the
 * client socket of each dial. The jitter is 0, so each redial waits the ceiling's lower half.
 */
export function agentLink(
  port: number,
  o: { enrolment: EnrolmentFile; timing: DeviceLinkOptions['timing']; timers?: Clock; welcomeMs?: number },
): { link: DeviceLink; warnings: Record<string, unknown>[]; sockets: WebSocket[] } {
  const warnings: Record<string, unknown>[] = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => void warnings.push(JSON.parse(s) as Record<string, unknown>) });
  const sockets: WebSocket[] = [];
  const link = new DeviceLink({
    enrolment: o.enrolment,
    acceptor: 'id003',
    mode: 'relay',
    log,
    connect: () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
      sockets.push(ws);
      return ws;
    },
    onMessage: () => undefined,
    random: () => 0,
    ...(o.timing ? { timing: o.timing } : {}),
    ...(o.timers ? { timers: o.timers } : {}),
    ...(o.welcomeMs !== undefined ? { welcomeMs: o.welcomeMs } : {}),
  });
  return { link, warnings, sockets };
}
