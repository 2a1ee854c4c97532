// What the stadium bench's processes tell each other over their IPC channels (times are
// process.hrtime.bigint() as decimal strings: the machine's monotonic clock, shared by all).
import type { HeapCount } from './heap-count.js';

export type ToHost = { type: 'measure'; cards: number } | { type: 'stop' };

export type FromHost =
  /** The measurement starts (the next betting window has opened): the clients' CPU is counted from here. */
  | { type: 'measuring' }
  /**
   * While measuring, at each card read counted and every few seconds: the card reads counted so
   * far, the coups settled since the measure began, the table's phase (the bench's stall watch).
   */
  | { type: 'progress'; cards: number; rounds: number; phase: string }
  /** Something the host started failed (an edge process exited): the host stops everything and exits. */
  | { type: 'failed'; why: string }
  | {
      type: 'ready';
      file: string;
      /** The edges the stations' screens connect to (issue 55), each with its certificate; none: the host's own listener. */
      edges: { origin: string; certificate: string; fingerprint: string }[];
      lanOrigin: string;
      /** The host's data folder (its TLS certificate is the bare broadcast's). */
      dataDir: string;
      tableId: string;
      /** The host's RSS with the table open and every station enrolled, before any connects. */
      rssIdle: number;
    }
  | {
      type: 'measured';
      rounds: number;
      cpuMs: number;
      /** The largest RSS sampled while measuring. */
      rssBytes: number;
      bytesSent: number;
      messagesSent: number;
      superseded: number;
      /** Messages and bytes by what they carried (the outbox's kinds: own, round, panel, whole or patch; reply). */
      kinds: Record<string, { messages: number; bytes: number }>;
      /**
       * Through edges: how many, the bytes and messages the host published on NATS (of them, the
       * stations' own parts as their patch alone and whole), each edge's CPU time, largest RSS and socket writes.
       */
      edges?: {
        count: number;
        published: number;
        messages: number;
        ownPatches: number;
        ownWholes: number;
        cpuMs: number[];
        rss: number[];
        /** Each edge's writes to its stations' sockets (one a socket a turn, `TurnBatch`). */
        writes: number[];
      };
      /** The subscribed screens while measuring (the stations connected). */
      subscribers: number;
      /** Card reads that sent no new public round (refused, or changing nothing a station sees): not in `cards`. */
      unsent: number;
      /** The average size of what a card read's own version sent each station (its patch, or the whole round where it went whole). */
      roundMessageBytes: number;
      /** Bets taken while measuring; the journal's durable commits, and those that carried bets. */
      bets: number;
      commits: number;
      betCommits: number;
      /**
       * Each card read: its start, and on the host's side when its journal commit was done, when
       * the public round it made was built (before its sends), and when its sends were done; its
       * place in the coup, whether it settled the coup, and then the results' version (the round
       * after the card's own) and when the host had sent it.
       */
      cards: {
        version: number;
        position: number;
        settled: boolean;
        t0: string;
        committed: string;
        built: string;
        sent: string;
        results?: { version: number; sent: string };
      }[];
    };

export type ToBare = { type: 'broadcast'; bytes: number; count: number; gapMs: number } | { type: 'stop' };

export type FromBare =
  | { type: 'ready'; port: number }
  | {
      type: 'done';
      times: { seq: number; t0: string; sent: string }[];
      clients: number;
      /** CPU time of the broadcasts (and the idle loop between them). */
      cpuMs: number;
      /** RSS of the bare server before any client connected, and its largest with every client. */
      rssIdle: number;
      rss: number;
    };

export type ToClients =
  | { type: 'mark' }
  /** Report once every unthrottled station has shown the public round `through` (or a later one), or after a few seconds. */
  | { type: 'report'; through: number }
  | { type: 'close-stations' }
  | { type: 'bare-connect'; port: number }
  | { type: 'bare-report' }
  | { type: 'stop' };

export type FromClients =
  /** Every station of the process set up, or given up on: `failed` names each station that was, and why (the bench then fails). */
  | { type: 'connected'; stations: number; failed: { station: number; why: string }[]; retried: number }
  /** While setting up, every few stations: how many are set up, given up on, and links opened again so far. */
  | { type: 'progress'; done: number; failed: number; retried: number }
  | {
      type: 'report';
      received: { station: number; throttled: boolean; versions: [number, string][] }[];
      /** The process's CPU time since the bench's mark (the measurement's start), and its event loop's delay p99 and max meanwhile. */
      cpuMs: number;
      loopDelayMs: { p99: number; max: number };
      /** What its collector did meanwhile: its pauses, scavenges and full collections, the bytes allocated. */
      gc: HeapCount;
      /** Unthrottled stations that had not shown the round asked for when the report was made, with the last they had (-1: none). */
      behind: { station: number; last: number }[];
    }
  | { type: 'stations-closed' }
  | { type: 'bare-connected'; clients: number }
  | {
      type: 'bare-report';
      received: { throttled: boolean; seqs: [number, string][] }[];
      /** The process's CPU time from its clients' connecting to the report, and its event loop's delay p99 and max meanwhile. */
      cpuMs: number;
      loopDelayMs: { p99: number; max: number };
      /** What its collector did meanwhile: its pauses, scavenges and full collections, the bytes allocated. */
      gc: HeapCount;
    };
