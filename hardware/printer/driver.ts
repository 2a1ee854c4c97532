// Host side of a TCL ticket printer: polls the extended status, defines the ticket layout in the
// printer's RAM at every session (and after the printer reports a reset), prints one ticket at a
// time and judges it from the status replies alone (judge.ts). Every wait is bounded by the clock:
// a silent or raving printer makes a print `unknown` or `not-printed`, never a hang. Facts:
// docs/protocols/tcl.md.
import { elapsedOf, Emitter, realClock, sleep, type Clock } from '../clock.js';
import { FrameChannel, Link, LinkLostError } from '../link.js';
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import type { WireFrame } from '../wire-frame.js';
import { blocking, conditionKey, conditionOf, type PrinterCondition } from './condition.js';
import { PrintJudge, resolveAttempt, type NotPrintedReason, type PrintAttempt, type Verdict } from './judge.js';
import { layoutCommands, nextTemplate, printCommand, TEMPLATE_IDS, type TemplateId } from './template.js';
import { COMMAND, TclReplyParser, type TclStatus } from './tcl.js';
import { TicketData } from './ticket.js';
import { tclRx, tclTx } from './trace.js';
import type { PrintOutcome, PrintRequest, PrinterEvent, PrinterOptions, TicketPrinter } from './types.js';

type Settings = Required<Omit<PrinterOptions, 'clock' | 'cjkFont' | 'latinFont'>>;

const DEFAULTS: Settings = {
  pollIntervalMs: 500,
  printPollIntervalMs: 100,
  replyTimeoutMs: 300,
  retries: 3,
  settleMs: 5000,
  printTimeoutMs: 30_000,
  refuseWhenChuteFull: true,
  reconnectBaseMs: 250,
  reconnectMaxMs: 10_000,
};

interface Job {
  validationNumber: string;
  resolve: (o: PrintOutcome) => void;
  request: PrintRequest;
  attempt?: PrintAttempt;
  judge?: PrintJudge;
  /** Its session ended before a verdict; the next one answers it from the printer's status. */
  orphan?: boolean;
  timer: unknown;
}

interface Pending {
  attempt: PrintAttempt;
  resolve: (o: PrintOutcome) => void;
  timer: unknown;
}

export class TclPrinter implements TicketPrinter {
  readonly protocol = 'tcl' as const;
  private readonly events = new Emitter<PrinterEvent>();
  private readonly frames = new Emitter<WireFrame>();
  private readonly link: Link;
  private readonly clock: Clock;
  private readonly o: Settings;
  private ch: FrameChannel<TclStatus> | null = null;
  private parser = new TclReplyParser();
  private cond: PrinterCondition | null = null;
  private lastKey = '';
  /** The session's first status, read before any flag was cleared (resolve() reads the reset flag from it). */
  private first: PrinterCondition | null = null;
  /** A print cycle (busy, or the validation flag low) seen in this session: a template named since `first` needs one. */
  private cycled = false;
  private sessionAt = 0;
  private layoutReady = false;
  /** When the layout was last sent: a printer that refuses it is asked again at most every settleMs. */
  private setupAt = -Infinity;
  private job: Job | null = null;
  private readonly asked: Pending[] = [];
  private nudge: AbortController | null = null;
  /**
   * Templates of jobs whose command went and that were never judged printed: the printer may still
   * hold one in its buffer and print it late, so no ticket takes them (they are forgotten only when
   * the printer reports a reset: the one the driver asked for, or a power cycle).
   */
  private readonly unconfirmed = new Set<TemplateId>(TEMPLATE_IDS);
  /** A job went unconfirmed: its buffer is to be flushed (or the printer reset) before the next command. */
  private purgeDue = true;
  /**
   * A new driver cannot know what the printer holds from before it (a restart of the host: the old
   * driver's unconfirmed templates are gone), so every template starts unconfirmed and the printer
   * is reset, after the questions asked at the start are answered: `due`, then `sent` until the
   * printer reports a reset (null). A reset not reported within settleMs is sent once more
   * (`resent`: one lost on the wire is no fault); a second one not reported is (`unreported`: the
   * layout is not defined, so the station reads not ready, until the printer reports a reset).
   */
  private fromBefore: 'due' | 'sent' | 'resent' | 'unreported' | null = 'due';
  /** The printer reset since the driver started (asked or seen): its memory of earlier jobs is gone. */
  private wiped = false;
  /** This driver's jobs sent since the last reset and not judged printed: still answerable from the status. */
  private readonly sinceWipe = new Set<string>();
  /** When the driver sent a reset the printer has not yet reported (its layout is defined again only after). */
  private resetSentAt: number | null = null;
  private garbage = 0;

  constructor(
    opener: PortOpener,
    private readonly options: PrinterOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.link = new Link(
      opener,
      {
        session: (port, signal) => this.session(port, signal),
        down: (reason) => this.events.emit({ type: 'disconnected', reason }),
        up: (again) => {
          if (again) this.events.emit({ type: 'reconnected' });
        },
      },
      { clock: this.clock, reconnectBaseMs: this.o.reconnectBaseMs, reconnectMaxMs: this.o.reconnectMaxMs },
    );
  }

  get condition(): PrinterCondition | null {
    return this.cond;
  }

  /** Connected with the ticket layout defined: a print now is sent (if the printer is ready for it). */
  get ready(): boolean {
    return this.ch !== null && this.layoutReady;
  }

  on(listener: (e: PrinterEvent) => void): () => void {
    return this.events.on(listener);
  }

  onFrame(listener: (f: WireFrame) => void): () => void {
    return this.frames.on(listener);
  }

  start(): void {
    this.link.start();
  }

  wake(): void {
    this.link.wake();
  }

  async close(): Promise<void> {
    await this.link.stop();
    const job = this.job;
    if (job) this.finish(job, job.judge ? job.judge.end('link-lost') : NOT_SENT);
    for (const p of [...this.asked]) this.answer(p, { outcome: 'unknown', reason: 'link-lost', evidence: NO_EVIDENCE });
  }

  print(request: PrintRequest): Promise<PrintOutcome> {
    const validationNumber = typeof request.ticket?.validationNumber === 'string' ? request.ticket.validationNumber : '';
    const refuse = (reason: NotPrintedReason): Promise<PrintOutcome> =>
      Promise.resolve(this.outcome(validationNumber, { outcome: 'not-printed', reason, evidence: NO_EVIDENCE }));
    if (!TicketData.safeParse(request.ticket).success) return refuse('invalid-ticket');
    if (this.job) return refuse('driver-busy');
    if (!this.ch || !this.layoutReady) return refuse('not-sent');
    return new Promise((resolve) => {
      const job: Job = { validationNumber, request, resolve, timer: null };
      job.timer = this.clock.setTimeout(() => this.finish(job, job.judge ? job.judge.end(this.ch ? 'timeout' : 'link-lost') : NOT_SENT), this.o.printTimeoutMs);
      this.job = job;
      this.wakeLoop();
    });
  }

  resolve(attempt: PrintAttempt): Promise<PrintOutcome> {
    return new Promise((resolve) => {
      const p: Pending = { attempt, resolve, timer: null };
      p.timer = this.clock.setTimeout(
        () => this.answer(p, { outcome: 'unknown', reason: this.ch ? 'timeout' : 'link-lost', evidence: NO_EVIDENCE }),
        this.o.printTimeoutMs,
      );
      this.asked.push(p);
      this.wakeLoop();
    });
  }

  // ── session ───────────────────────────────────────────────────────────────
  private async session(port: BytePort, signal: AbortSignal): Promise<void> {
    this.parser = new TclReplyParser();
    this.garbage = 0;
    const ch = new FrameChannel(port, (b) => this.parser.push(b), this.clock, {
      tx: (bytes) => this.trace(() => tclTx(bytes)),
      rx: (s) => this.trace(() => tclRx(s)),
    });
    this.ch = ch;
    this.layoutReady = false;
    this.setupAt = -Infinity;
    this.cycled = false;
    try {
      this.first = await this.poll();
      this.sessionAt = elapsedOf(this.clock);
      this.link.markUp();
      this.events.emit({ type: 'connected', firmware: this.first.firmware });
      this.observe(this.first);
      while (!signal.aborted) {
        // Questions about jobs sent before are answered first: the layout's CLEAR and DELETE must not touch the evidence.
        // Only once the printer is idle: a job still in the engine is not cut, and its evidence stays.
        if (this.purgeDue && !this.job && this.asked.length === 0 && this.cond?.busy === false) await this.purge();
        // A reset never reported within settleMs: the start's is sent again, then is a fault (resetUnreported);
        // after another's, the layout is defined again, the templates still avoided.
        if (this.resetSentAt !== null && elapsedOf(this.clock) - this.resetSentAt >= this.o.settleMs) this.resetUnreported();
        const due =
          elapsedOf(this.clock) - this.setupAt >= this.o.settleMs &&
          !this.job?.orphan &&
          this.asked.length === 0 &&
          this.resetSentAt === null &&
          !this.startResetHolds();
        if (due && (!this.layoutReady || (this.cond?.reset && !this.job?.judge))) await this.setup();
        if (this.job && !this.job.judge) await this.send(this.job);
        this.answerOrphan();
        this.answerAsked();
        await this.pause(signal);
        if (signal.aborted) break;
        this.observe(await this.poll());
      }
    } finally {
      ch.dispose();
      this.ch = null;
      this.layoutReady = false;
      // A job whose command went out stays open across a reconnect: the next session's status
      // answers it (resolveAttempt), within printTimeoutMs. One never sent is not printed.
      const job = this.job;
      if (job && !job.attempt) this.finish(job, NOT_SENT);
      else if (job) job.orphan = true;
    }
  }

  /** One extended status request, answered within replyTimeoutMs; `retries` silences in a row lose the link. */
  private async poll(): Promise<PrinterCondition> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    for (let attempt = 0; attempt < this.o.retries; attempt++) {
      ch.clear();
      const before = this.parser.errors;
      await ch.write(COMMAND.STATUS_EXTENDED);
      const s = await ch.next(this.o.replyTimeoutMs);
      if (this.parser.errors > before) this.sawGarbage();
      if (s) return conditionOf(s);
      this.parser.reset();
    }
    throw new LinkLostError(`TCL: no status reply after ${this.o.retries} requests`);
  }

  private sawGarbage(): void {
    if (this.garbage++ === 0) this.events.emit({ type: 'protocolViolation', rule: 'garbage', report: 'bytes that are no TCL status reply' });
  }

  /** Clears the flags, then defines the ticket's regions and templates in RAM; ready if the printer took them. */
  private async setup(): Promise<void> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    this.setupAt = elapsedOf(this.clock);
    await ch.write(COMMAND.CLEAR);
    await ch.write(COMMAND.DELETE_REGIONS);
    for (const c of layoutCommands(this.options)) await ch.write(c);
    const c = await this.poll();
    this.observe(c);
    const refused = c.faults.includes('data-error') || c.faults.includes('command-error');
    this.layoutReady = c.extended && !refused && !c.reset;
    if (refused) {
      this.events.emit({
        type: 'failure',
        reason: `the printer refused the ticket layout (${c.faults.join(', ')})`,
        failure: { code: 'layout-refused', faults: c.faults },
      });
      await ch.write(COMMAND.CLEAR);
    }
  }

  /**
   * After a job sent and not judged printed (a review of 4 December: a printer that held a job past
   * its verdict printed it when the next command came, and the next ticket, on the same template,
   * read as printed): what the printer still holds is flushed; when no template is left that
   * avoids the last printed and every unconfirmed one, the printer is reset (its RAM and buffer
   * lost) and the layout defined again.
   */
  private async purge(): Promise<void> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    // Due until written: a link lost on the way sends it again in the next session.
    if (nextTemplate(this.cond?.lastTemplate ?? '', this.unconfirmed) !== null) {
      await ch.write(COMMAND.FLUSH);
      this.purgeDue = false;
      return;
    }
    await ch.write(COMMAND.RESET);
    this.purgeDue = false;
    this.wipe();
    this.resetSentAt = elapsedOf(this.clock);
    this.layoutReady = false;
    this.setupAt = -Infinity;
    if (this.fromBefore === 'due' || this.fromBefore === 'sent') {
      this.fromBefore = this.fromBefore === 'due' ? 'sent' : 'resent';
      return;
    }
    this.events.emit({
      type: 'failure',
      reason: `tickets on templates ${[...this.unconfirmed].join(', ')} were never confirmed printed: the printer was reset`,
      failure: { code: 'reset-held-jobs' },
    });
  }

  /** The start's reset is still to be written (no layout before it: the station would read ready), or went unreported twice. */
  private startResetHolds(): boolean {
    if (this.fromBefore === 'unreported') return true;
    return this.purgeDue && (this.fromBefore === 'due' || this.fromBefore === 'sent');
  }

  /** A reset sent and not reported within settleMs: the start's is sent once more, then is a fault; others define the layout again. */
  private resetUnreported(): void {
    this.resetSentAt = null;
    if (this.fromBefore === 'sent') this.purgeDue = true;
    if (this.fromBefore !== 'resent') return;
    this.fromBefore = 'unreported';
    this.events.emit({
      type: 'failure',
      reason:
        'the printer did not report the reset sent at start, twice: a ticket it held from before could print late, so none is printed until it reports a reset (a power cycle)',
      failure: { code: 'reset-unreported' },
    });
  }

  private wipe(): void {
    this.wiped = true;
    this.sinceWipe.clear();
  }

  /** The job's command, if the printer is ready for it: the host journals the attempt first. */
  private async send(job: Job): Promise<void> {
    const ch = this.ch;
    const c = this.cond;
    if (!ch || !c) return this.finish(job, NOT_SENT);
    const chuteFull = this.o.refuseWhenChuteFull && c.paperInChute;
    if (!this.layoutReady || !c.extended || c.busy || c.reset || blocking(c).length > 0 || chuteFull) return this.finish(job, notPrinted('not-ready'));
    const template = nextTemplate(c.lastTemplate, this.unconfirmed);
    if (!template) {
      this.finish(job, notPrinted('not-ready'));
      this.purgeDue = true;
      return;
    }
    const attempt: PrintAttempt = { validationNumber: job.validationNumber, template, before: c.lastTemplate };
    try {
      await job.request.onSend?.(attempt);
    } catch {
      return this.finish(job, notPrinted('not-journalled'));
    }
    if (this.job !== job) return; // timed out while the host journalled
    job.attempt = attempt;
    job.judge = new PrintJudge(attempt.template, c, elapsedOf(this.clock), this.o.settleMs);
    try {
      await ch.write(printCommand(attempt.template, job.request.ticket));
    } catch {
      this.finish(job, job.judge.end('link-lost'));
    }
  }

  /** A status: the condition event, the job's judge, or a print nobody asked for. */
  private observe(c: PrinterCondition): void {
    const prev = this.cond;
    this.cond = c;
    if (c.busy || !c.validationDone) this.cycled = true;
    if (c.reset) {
      // The printer was reset (the one the driver asked for, or a power cycle by a technician): its
      // buffer is gone with its RAM. A printer that never reports one stays refused until then.
      this.resetSentAt = null;
      this.unconfirmed.clear();
      this.fromBefore = null;
      this.wipe();
    }
    const key = conditionKey(c);
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.events.emit({ type: 'condition', condition: c });
    }
    const job = this.job;
    if (job?.orphan) return;
    if (job?.judge) {
      const v = job.judge.observe(c, elapsedOf(this.clock));
      if (v) this.finish(job, v);
      return;
    }
    // While a question is out, a print cycle is the job asked about finishing (one a killed host left
    // in the engine) or another from before: its answer reads it, and it is no print nobody asked for.
    if (this.asked.length > 0) return;
    if (prev && !c.reset && ((c.busy && !prev.busy) || (c.validationDone && !prev.validationDone)))
      this.events.emit({
        type: 'protocolViolation',
        rule: 'unsolicited-print',
        report: `print cycle with no job (busy ${c.busy}, validation done ${c.validationDone}, template ${c.lastTemplate})`,
      });
  }

  private finish(job: Job, v: Verdict): void {
    if (this.job !== job) return;
    this.job = null;
    this.clock.clearTimeout(job.timer);
    if (job.attempt && v.outcome !== 'printed') {
      this.unconfirmedJob(job.attempt.template);
      this.sinceWipe.add(job.validationNumber);
    }
    const out = this.outcome(job.validationNumber, v, job.attempt);
    if (v.evidence.repeated)
      this.events.emit({ type: 'protocolViolation', rule: 'repeated-print', report: `more than one print cycle for ${job.validationNumber}` });
    this.events.emit({ type: 'printed', outcome: out });
    job.resolve(out);
  }

  private unconfirmedJob(template: TemplateId): void {
    this.unconfirmed.add(template);
    this.purgeDue = true;
  }

  /** A job whose session ended after its command went: judged like a journalled attempt. */
  private answerOrphan(): void {
    const job = this.job;
    const c = this.cond;
    if (!job?.attempt || !job.orphan || !c || !this.first || c.busy || elapsedOf(this.clock) - this.sessionAt < this.o.settleMs) return;
    this.finish(job, resolveAttempt(job.attempt, this.first, c, this.cycled));
  }

  /** Journalled attempts, answered once the printer is idle and has had settleMs to start anything in its buffer. */
  private answerAsked(): void {
    const c = this.cond;
    const first = this.first;
    if (!c || !first || this.job || c.busy || elapsedOf(this.clock) - this.sessionAt < this.o.settleMs) return;
    for (const p of [...this.asked]) {
      // After a reset the printer names no template: a job from before it proves neither way.
      const gone = this.wiped && !this.sinceWipe.has(p.attempt.validationNumber);
      this.answer(p, gone ? { outcome: 'unknown', reason: 'printer-restarted', evidence: NO_EVIDENCE } : resolveAttempt(p.attempt, first, c, this.cycled));
    }
  }

  private answer(p: Pending, v: Verdict): void {
    const i = this.asked.indexOf(p);
    if (i < 0) return;
    this.asked.splice(i, 1);
    this.clock.clearTimeout(p.timer);
    // A job found not printed after a restart may still wait in the printer's buffer, as one just sent;
    // one the printer's restart (or the driver's reset) answers for has gone with its buffer.
    if (v.outcome !== 'printed' && v.reason !== 'printer-restarted') this.unconfirmedJob(p.attempt.template);
    p.resolve(this.outcome(p.attempt.validationNumber, v, p.attempt));
  }

  private outcome(validationNumber: string, v: Verdict, attempt?: PrintAttempt): PrintOutcome {
    return { ...v, validationNumber, ...(attempt ? { attempt } : {}) };
  }

  /** Waits a poll interval (shorter while a job is out), or until print()/resolve() wakes the loop. */
  private async pause(signal: AbortSignal): Promise<void> {
    const nudge = new AbortController();
    this.nudge = nudge;
    const stop = (): void => nudge.abort();
    signal.addEventListener('abort', stop, { once: true });
    const busy = this.job !== null || this.asked.length > 0;
    await sleep(this.clock, busy ? this.o.printPollIntervalMs : this.o.pollIntervalMs, nudge.signal);
    signal.removeEventListener('abort', stop);
    this.nudge = null;
  }

  private wakeLoop(): void {
    this.nudge?.abort();
  }

  private trace(make: () => WireFrame): void {
    if (this.frames.listened) this.frames.emit(make());
  }
}

const NO_EVIDENCE = { started: false, validationPrinted: false, lastTemplate: null, faults: [], repeated: false };
const NOT_SENT: Verdict = { outcome: 'not-printed', reason: 'not-sent', evidence: NO_EVIDENCE };
const notPrinted = (reason: NotPrintedReason): Verdict => ({ outcome: 'not-printed', reason, evidence: NO_EVIDENCE });
