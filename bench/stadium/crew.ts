// The stadium bench's processes, watched (issue 55): the table host (which starts NATS and the
// edges), the client processes holding the stations, the bare broadcast. Before, the bench waited
// on each process's next message for good: a client process that died, an edge that died under
// the host, a set-up whose handshakes all timed out or a host that never counted a card (28
// November: a Proxy forwarded the bench's card probe to an empty stand-in) left it waiting for
// ever. Now every wait is for the crew: a process that exits before it is told to stop, one that
// says it failed, or a phase in which nothing moves for its stall time fails every wait at once,
// naming what stalled; the bench then stops everything it started and exits non-zero.
//
// Each process runs in a process group of its own (`detached`), so that stopping it reaches what
// it started too (the host's nats-server and edge processes): asked to stop over IPC first, then
// SIGTERM to its group, then SIGKILL. Each child also exits when its IPC channel closes (the bench
// gone, even by SIGKILL), the host stopping its edges and NATS on the way.
import { fork, spawn, type ChildProcess } from 'node:child_process';

/** How a member's process may be started: its file, environment, cores, flags. */
export interface MemberOptions {
  /** `taskset -c` list, or null to share the machine's cores. */
  readonly cpus: string | null;
  readonly flags?: readonly string[];
}

/** One process of the crew, spoken to over its IPC channel. */
export class Member<In extends object, Out extends { type: string }> {
  readonly proc: ChildProcess;
  /** Told to stop (or being stopped): its exit is expected, not a failure. */
  stopping = false;
  /** Every message of type `progress`, as it comes (the bench's stall watch). */
  onProgress: ((m: Out) => void) | null = null;
  private readonly inbox: Out[] = [];
  private readonly waiting: { type: string; resolve: (m: Out) => void; reject: (e: Error) => void }[] = [];
  private exited: string | null = null;

  constructor(
    private readonly crew: Crew,
    readonly name: string,
    script: string,
    env: Record<string, string>,
    o: MemberOptions,
  ) {
    const execArgv = ['--import', 'tsx', ...(o.flags ?? [])];
    const options = { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[], detached: true };
    // taskset execs node with the IPC channel's descriptor and environment as fork would pass them.
    this.proc = o.cpus ? spawn('taskset', ['-c', o.cpus, process.execPath, ...execArgv, script], options) : fork(script, [], { ...options, execArgv });
    this.proc.on('message', (m: Out) => this.received(m));
    this.proc.on('error', (e) => crew.fail(new Error(`${this.label()}: ${e.message}`)));
    this.proc.once('exit', (code, signal) => {
      this.exited = signal ? `was killed by ${signal}` : `exited with code ${String(code)}`;
      const e = new Error(`${this.label()} ${this.exited} while ${crew.phase}`);
      for (const w of this.waiting.splice(0)) w.reject(e);
      if (!this.stopping) crew.fail(e);
    });
  }

  label(): string {
    return `${this.name} (pid ${String(this.proc.pid)})`;
  }

  alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  send(m: In): void {
    if (this.proc.connected) this.proc.send(m);
  }

  /** Its next message of `type`: fails if it exits first, or the crew fails. */
  next<T extends Out>(type: T['type']): Promise<T> {
    const i = this.inbox.findIndex((m) => m.type === type);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0] as T);
    if (this.exited !== null) return Promise.reject(new Error(`${this.label()} ${this.exited} before its ${type}`));
    return this.crew.watch(new Promise<T>((resolve, reject) => this.waiting.push({ type, resolve: (m) => resolve(m as T), reject })));
  }

  /** Resolves when it has exited. */
  ended(): Promise<void> {
    return this.alive() ? new Promise((r) => this.proc.once('exit', () => r())) : Promise.resolve();
  }

  private received(m: Out): void {
    if (m.type === 'progress') return this.onProgress?.(m);
    if (m.type === 'failed') return this.crew.fail(new Error(`${this.label()}: ${(m as { why?: string }).why ?? 'failed'}`));
    const w = this.waiting.findIndex((x) => x.type === m.type);
    if (w >= 0) this.waiting.splice(w, 1)[0]?.resolve(m);
    else this.inbox.push(m);
  }
}

/**
 * The processes of one run. `phase` names what the bench is waiting for; while in a phase, the
 * crew fails if nothing moves (`moved()`) for its stall time. `status` says where the phase is,
 * for the failure's message.
 */
export class Crew {
  phase = 'starting';
  private readonly members: Member<object, { type: string }>[] = [];
  private failure: Error | null = null;
  private readonly failed: Promise<never>;
  private failNow: (e: Error) => void = () => undefined;
  private stall: ReturnType<typeof setTimeout> | null = null;
  private stallMs = 0;
  private status: () => string = () => '';

  constructor() {
    this.failed = new Promise<never>((_, reject) => (this.failNow = reject));
    // Nobody may be waiting when it fails: a rejection nobody watched is not the process's end.
    this.failed.catch(() => undefined);
  }

  /** Starts a process of the crew. */
  start<In extends object, Out extends { type: string }>(name: string, script: string, env: Record<string, string>, o: MemberOptions): Member<In, Out> {
    if (this.failure) throw this.failure;
    const m = new Member<In, Out>(this, name, script, env, o);
    this.members.push(m as unknown as Member<object, { type: string }>);
    return m;
  }

  /** Every pid the crew started, by name (the bench prints them: a test kills one). */
  pids(): string {
    return this.members.map((m) => `${m.name} ${String(m.proc.pid)}`).join(', ');
  }

  /** Enters a phase: it fails if nothing moves for `stallMs`; `status` says how far it got. */
  enter(phase: string, stallMs: number, status: () => string = () => ''): void {
    this.phase = phase;
    this.stallMs = stallMs;
    this.status = status;
    this.moved();
  }

  /** Something moved in the phase: its stall time starts again. */
  moved(): void {
    if (this.stall) clearTimeout(this.stall);
    if (this.failure) return;
    this.stall = setTimeout(() => {
      const at = this.status();
      this.fail(new Error(`stalled: nothing moved for ${(this.stallMs / 1000).toFixed(0)} s while ${this.phase}${at ? ` (${at})` : ''}`));
    }, this.stallMs);
    this.stall.unref();
  }

  /** Fails the run: every wait under way and after rejects with `why` (the first failure wins). */
  fail(why: Error): void {
    if (this.failure) return;
    this.failure = why;
    if (this.stall) clearTimeout(this.stall);
    this.failNow(why);
  }

  /** `p`, unless the crew fails first. */
  watch<T>(p: Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return Promise.race([p, this.failed]);
  }

  /** Waits for one member's exit (expected: it was told to stop). */
  async stopped(m: Pick<Member<object, { type: string }>, 'stopping' | 'ended'>): Promise<void> {
    m.stopping = true;
    await this.watch(m.ended());
  }

  /**
   * Stops every process still there and what it started: asked over IPC, then after `graceMs`
   * SIGTERM to its group, then SIGKILL. Never throws; resolves once every process has exited.
   */
  async stopAll(graceMs = 15_000): Promise<void> {
    if (this.stall) clearTimeout(this.stall);
    const all = [...this.members];
    for (const m of all) {
      m.stopping = true;
      m.send({ type: 'stop' });
    }
    const group = (m: Member<object, { type: string }>, signal: NodeJS.Signals) => {
      try {
        if (m.proc.pid) process.kill(-m.proc.pid, signal);
      } catch {
        // The group is gone.
      }
    };
    const gone = (ms: number) => Promise.race([Promise.all(all.map((m) => m.ended())), new Promise((r) => setTimeout(r, ms))]);
    await gone(graceMs);
    for (const m of all) if (m.alive()) group(m, 'SIGTERM');
    await gone(3000);
    // SIGKILL to the group of every process that did not end cleanly, its leader gone or not: a
    // leader killed before it stopped its own children (a host's nats-server, its edges) leaves
    // them in its group.
    for (const m of all) if (m.proc.exitCode !== 0) group(m, 'SIGKILL');
    await Promise.all(all.map((m) => m.ended()));
  }
}
