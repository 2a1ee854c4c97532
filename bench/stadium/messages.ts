// What the stadium bench's processes tell each other over their IPC channels (times are
// process.hrtime.bigint() as decimal strings: the machine's monotonic clock, shared by all).

export type ToHost =
  { type: 'measure'; rounds: number } | { type: 'bare-listen' } | { type: 'bare-broadcast'; bytes: number; count: number; gapMs: number } | { type: 'stop' };

export type FromHost =
  | { type: 'ready'; file: string; lanOrigin: string }
  | {
      type: 'measured';
      rounds: number;
      cpuMs: number;
      rssBytes: number;
      bytesSent: number;
      messagesSent: number;
      superseded: number;
      roundMessageBytes: number;
      /**
       * Each card read: its start, and on the host's side when its journal commit was done, when
       * the public round it made was built (before its sends), and when its sends were done.
       */
      cards: { version: number; t0: string; committed: string; built: string; sent: string }[];
    }
  | { type: 'bare-ready'; port: number }
  | { type: 'bare-done'; times: { seq: number; t0: string; sent: string }[]; clients: number };

export type ToClients = { type: 'report' } | { type: 'bare-connect'; port: number } | { type: 'bare-report' } | { type: 'stop' };

export type FromClients =
  | { type: 'connected'; stations: number }
  | { type: 'report'; received: { station: number; throttled: boolean; versions: [number, string][] }[] }
  | { type: 'bare-connected'; clients: number }
  | { type: 'bare-report'; received: { throttled: boolean; seqs: [number, string][] }[] };
