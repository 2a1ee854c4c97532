// A terminal's batch of journal entries as the upstream takes it, and every answer it may get:
// an acknowledgement of the head, or a refusal that says why (the ingest's parts all throw one).

export interface IngestEntry {
  seq: number;
  hash: string;
  body: string;
}

export interface IngestBatch {
  terminalId: string;
  prevHash: string;
  entries: IngestEntry[];
}

export type IngestResult =
  | { status: 200; ackedSeq: number; headHash: string; inserted: number; duplicates: number }
  | { status: 409; error: 'gap'; ackedSeq: number; headHash: string; message: string }
  | { status: 409; error: 'divergence'; seq: number; ackedSeq: number; headHash: string; message: string }
  | { status: 422; error: 'bad-chain' | 'bad-entry'; seq: number; message: string };

export class Refused extends Error {
  constructor(readonly result: Exclude<IngestResult, { status: 200 }>) {
    super(result.message);
  }
}

/** The terminal's head as the upstream holds it: the last entry's sequence and hash (0 and none before the first). */
export interface Head {
  readonly seq: number;
  readonly hash: string;
}
