// The back office's live floor stream under attack (issue 49; docs/backoffice.md, "The floor"): a
// client that keeps its Server-Sent Events stream open after its session ended — signed out, idle
// past the limit, its user disabled, its password changed from the command line — must stop
// receiving the floor; and a client that never reads must not grow the upstream's memory: it is
// dropped once too much is unsent, with an audit entry, while a client that reads is served on.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { disableUser, enrolTerminal, migrateUpstream, openPglite, putUser, startUpstream, type Db } from '../../upstream/index.js';
import { MAX_STREAMS_PER_USER } from '../../upstream/backoffice/floor-hub.js';
import { IDLE_MS } from '../../upstream/backoffice/sessions.js';
import { MAX_FAULT_KINDS } from '../../upstream/schemas.js';
import { signInHttp, type HttpSession } from '../sync/backoffice-http.js';
import { FAST, PASSWORD } from './backoffice-kit.js';

/** How often the test's upstream pushes every row (the production default is 5 s). */
const SWEEP_MS = 25;
/** The per-client bound on unsent bytes in this test (the production default is larger). */
const MAX_UNSENT = 256 * 1024;

interface Sse {
  /** The next event's name, or `closed` when the server ended the stream. */
  next(timeoutMs?: number): Promise<string>;
  abort(): void;
}

async function stream(url: string, cookie: string): Promise<Sse> {
  const ac = new AbortController();
  const res = await fetch(`${url}/backoffice/api/floor/events`, { headers: { cookie }, signal: ac.signal });
  assert.equal(res.status, 200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          if (event) return event;
          continue;
        }
        const left = deadline - Date.now();
        assert.ok(left > 0, 'no event in time');
        let timer: NodeJS.Timeout | undefined;
        const read = await Promise.race([
          reader.read().catch(() => ({ done: true as const, value: undefined })),
          new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
        ]);
        clearTimeout(timer);
        assert.notEqual(read, 'timeout', 'no event in time');
        if (read === 'timeout' || read.done) return 'closed';
        buffer += decoder.decode(read.value, { stream: true });
      }
    },
    abort: () => ac.abort(),
  };
}

/** Reads until the stream ends (within 10 s, or the test fails); every event it carried on the way. */
async function drain(s: Sse): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 10_000;
  for (;;) {
    assert.ok(Date.now() < deadline, `the stream never ended: ${seen.length} events after its session did`);
    const e = await s.next();
    if (e === 'closed') return seen;
    seen.push(e);
  }
}

describe('back office: the live floor stream ends with its session and drops a client that never reads', () => {
  let db: Db;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  const clock = { now: Date.now() };
  const streams: Sse[] = [];
  const open = async (cookie: string) => {
    const s = await stream(up.url, cookie);
    streams.push(s);
    assert.equal(await s.next(), 'floor', 'the whole floor first');
    return s;
  };
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    for (const name of ['ana', 'rui', 'ines', 'tom', 'eva', 'max', 'lia', 'noa'])
      await putUser(db, { name, role: 'viewer', password: PASSWORD, by: 'test' }, FAST);
    // A floor of twelve tables each with the longest fault list a heartbeat may carry (64 kinds of
    // 64 characters: upstream/schemas.ts): every push is some 50 KB.
    for (let i = 1; i <= 12; i++) {
      const id = `T${i}`;
      await enrolTerminal(db, id, false);
      const faults = Array.from({ length: MAX_FAULT_KINDS }, (_, k) => `fault-${k}-`.padEnd(64, 'x'));
      await db.query('UPDATE terminals SET last_seen_at = now(), last_health = $2::jsonb WHERE terminal_id = $1', [
        id,
        JSON.stringify({ tableId: id, game: 'blackjack', table: { phase: 'betting', faults } }),
      ]);
    }
    up = await startUpstream({ db, backoffice: { now: () => clock.now, floorStream: { sweepMs: SWEEP_MS, maxUnsentBytes: MAX_UNSENT } } });
  });
  after(async () => {
    streams.forEach((s) => s.abort());
    await up.close();
    await db.close();
  });

  const signOut = (s: HttpSession) =>
    fetch(`${up.url}/backoffice/api/sign-out`, { method: 'POST', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } }).then((r) => r.status);

  it('a stream held open after sign-out, and one opened with a copy of the cookie, receive nothing more and end', async () => {
    const ana = await signInHttp(up.url, 'ana', PASSWORD);
    const own = await open(ana.cookie);
    const copy = await open(ana.cookie);
    assert.equal(await own.next(), 'rows', 'the floor is live while signed in');
    assert.equal(await signOut(ana), 204);
    for (const s of [own, copy]) {
      // Whatever was already on its way before the sign-out's answer may still arrive; then the
      // stream says it ended and closes, and no floor after it.
      const after = await drain(s);
      assert.equal(after.at(-1), 'ended', `${after.length} events`);
    }
    // A fresh stream with the same cookie is refused.
    assert.equal((await fetch(`${up.url}/backoffice/api/floor/events`, { headers: { cookie: ana.cookie } })).status, 401);
  });

  it('a stream whose session expired while nobody made a request ends at the next push', async () => {
    const rui = await signInHttp(up.url, 'rui', PASSWORD);
    const s = await open(rui.cookie);
    assert.equal(await s.next(), 'rows');
    // The stream itself is no activity: half an hour later, with no request, the session is over.
    clock.now += IDLE_MS + 1_000;
    const after = await drain(s);
    assert.equal(after.at(-1), 'ended', `${after.length} events`);
    clock.now = Date.now();
  });

  it('a stream whose user is disabled, or given a new password, from the command line ends at the next push', async () => {
    const ines = await signInHttp(up.url, 'ines', PASSWORD);
    const tom = await signInHttp(up.url, 'tom', PASSWORD);
    const a = await open(ines.cookie);
    const b = await open(tom.cookie);
    // As `etg upstream user --disable` and `--replace` do: straight to the database, no event in the server.
    assert.equal(await disableUser(db, 'ines', 'cli:root'), true);
    await putUser(db, { name: 'tom', role: 'viewer', password: 'another long pass phrase', replace: true, by: 'cli:root' }, FAST);
    for (const s of [a, b]) {
      const after = await drain(s);
      assert.equal(after.at(-1), 'ended', `${after.length} events`);
    }
    const ended = await db.query<{ actor: string }>("SELECT actor FROM audit_log WHERE action = 'floor.stream.ended' ORDER BY id");
    assert.deepEqual(new Set(ended.rows.map((r) => r.actor)), new Set(['ana', 'rui', 'ines', 'tom']));
  });

  it('a client that never reads is dropped once more than the bound is unsent, with an audit entry; a reading client goes on', async () => {
    const eva = await signInHttp(up.url, 'eva', PASSWORD);
    const reader = await open(eva.cookie);
    // The hostile client: asks for the stream over a raw socket and never reads a byte.
    const host = new URL(up.url);
    const socket = connect(Number(host.port), host.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(`GET /backoffice/api/floor/events HTTP/1.1\r\nHost: ${host.host}\r\nCookie: ${eva.cookie}\r\n\r\n`);
    const dropped = async () =>
      (await db.query<{ detail: { unsentBytes: number; limit: number } }>("SELECT detail FROM audit_log WHERE action = 'floor.stream.dropped'")).rows;
    const deadline = Date.now() + 60_000;
    // Meanwhile the reading client reads on.
    let read = 0;
    while ((await dropped()).length === 0) {
      assert.ok(Date.now() < deadline, 'the client that never reads was never dropped');
      assert.equal(await reader.next(), 'rows');
      read++;
    }
    const [entry] = await dropped();
    assert.ok(entry);
    assert.equal(entry.detail.limit, MAX_UNSENT);
    // Held for it: past the bound by at most the one push written before the check (some 50 KB).
    assert.ok(entry.detail.unsentBytes > MAX_UNSENT && entry.detail.unsentBytes < MAX_UNSENT + 100 * 1024, JSON.stringify(entry.detail));
    // The server closed its end: reading now finds the end of the stream, not an endless one.
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', () => {});
    socket.resume();
    await closed;
    // The reader was never dropped: it still receives the floor.
    assert.equal(await reader.next(), 'rows');
    assert.ok(read > 0);
    assert.equal((await dropped()).length, 1, 'only the client that never read');
  });

  it('HEAD of the stream answers its headers and ends: no endless stream, no place among the open streams', async () => {
    // Fastify answers HEAD of every GET route with the route's handler: the stream's handler held
    // the connection open for ever, a stream of the user's with nothing written to it.
    const noa = await signInHttp(up.url, 'noa', PASSWORD);
    const host = new URL(up.url);
    const socket = connect(Number(host.port), host.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const closed = new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000).unref();
    });
    socket.write(`HEAD /backoffice/api/floor/events HTTP/1.1\r\nHost: ${host.host}\r\nCookie: ${noa.cookie}\r\nConnection: close\r\n\r\n`);
    assert.equal(await closed, true, `the answer never ended: ${JSON.stringify(answer)}`);
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /content-type: text\/event-stream/i);
    assert.ok(!/event: floor/.test(answer), 'no body to a HEAD');
    // Signed out, HEAD is refused as GET is.
    assert.equal((await fetch(`${up.url}/backoffice/api/floor/events`, { method: 'HEAD' })).status, 401);
  });

  it("one user's streams are bounded, over every session of theirs: past the bound the oldest is closed, nobody else's", async () => {
    // A hostile viewer (or a stolen cookie) opening stream after stream, signing in again for more:
    // each one is a socket the upstream writes the whole floor to, and holds up to the bound unsent for.
    const lia = await signInHttp(up.url, 'lia', PASSWORD);
    const other = await open(lia.cookie);
    const sessions = [await signInHttp(up.url, 'max', PASSWORD), await signInHttp(up.url, 'max', PASSWORD)];
    const opened: Sse[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER + 4; i++) opened.push(await open((sessions[i % 2] as HttpSession).cookie));
    // The oldest four are closed (drain fails the test if a stream never ends), not told their session ended: it did not.
    for (const s of opened.slice(0, 4)) assert.ok(!(await drain(s)).includes('ended'));
    for (const s of opened.slice(4)) assert.equal(await s.next(), 'rows', 'the newest go on');
    assert.equal(await other.next(), 'rows', "another user's stream goes on");
    const closed = await db.query<{ actor: string; reason: string }>(
      "SELECT actor, detail->>'reason' AS reason FROM audit_log WHERE action = 'floor.stream.dropped' AND detail->>'reason' = 'too-many-streams'",
    );
    assert.deepEqual(
      closed.rows.map((r) => r.actor),
      ['max', 'max', 'max', 'max'],
    );
  });
});
