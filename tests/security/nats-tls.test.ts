// Issue 55 item 4: an edge is a machine of its own on the casino network, and so is whoever
// listens on that network. Between the table's NATS server and its clients (the host, the edges):
// a sniffer on the wire reads no password and no station's part; a client that speaks NATS in
// clear, or that presents no password or another's, is refused; a client never talks to a NATS
// server whose certificate is not the one it pins; and an edge's user, over TLS as in clear, may
// not read another edge's or another table's parts nor publish another edge's commands. Each test
// starts its own server and stops it after, whatever happened.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { natsCertificate, natsTls, type NatsCertificate } from '../../host/edges/nats-tls.js';
import { startNatsServer, type NatsServer } from '../../host/edges/nats-server.js';
import { edgeInbox, edgePermissions, tableSubjects } from '../../host/edges/subjects.js';
import { edgePasswords } from '../../host/edges/table-edges.js';

const TABLE = 'T1';
const password = (user: string) => `pw-${user}-0123456789abcdef-secret`;
const users = [
  { user: 'host', password: password('host') },
  ...['edge-1', 'edge-2'].map((e) => ({ user: e, password: password(e), ...edgePermissions(TABLE, e) })),
];

/** A TCP relay that keeps every byte crossing it, both ways: a sniffer on the casino network. */
async function sniffer(port: number): Promise<{ url: string; heard: () => Buffer; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (client.destroy(), upstream.destroy()));
    }
    client.on('data', (d: Buffer) => (chunks.push(Buffer.from(d)), upstream.write(d)));
    upstream.on('data', (d: Buffer) => (chunks.push(Buffer.from(d)), client.write(d)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return {
    url: `nats://127.0.0.1:${address.port}`,
    heard: () => Buffer.concat(chunks),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('NATS between the table and its edges, over TLS', { timeout: 180_000 }, () => {
  let dir: string;
  let cert: NatsCertificate;
  let nats: NatsServer | null = null;
  const open: NatsConnection[] = [];
  const closers: (() => Promise<void>)[] = [];
  const as = async (user: string, servers = nats?.url ?? '', extra: { pin?: NatsCertificate } = {}) => {
    const nc = await connect({
      servers,
      user,
      pass: password(user),
      reconnect: false,
      timeout: 20_000,
      tls: natsTls(extra.pin ?? cert),
      inboxPrefix: edgeInbox(user),
    });
    open.push(nc);
    return nc;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nats-tls-'));
    cert = await natsCertificate(path.join(dir, 'edges'), ['127.0.0.1']);
    nats = await startNatsServer({ dir: path.join(dir, 'nats'), users, tls: { certFile: cert.certFile, keyFile: cert.keyFile } });
  });
  afterEach(async () => {
    for (const nc of open.splice(0)) await nc.close().catch(() => undefined);
    for (const c of closers.splice(0)) await c();
    await nats?.close();
    nats = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a sniffer on the wire no password and no station’s part', async () => {
    const wire = await sniffer(nats?.port ?? 0);
    closers.push(wire.close);
    const s = tableSubjects(TABLE);
    const part = 'station-101-credit-12345600-own-part';
    const command = 'bet-station-101-banker-50000';
    // The host publishes a station's own part to its edge; the edge publishes a command: both
    // through the sniffer, and both arrive (so the sniffer did carry them).
    const host = await as('host', wire.url);
    const commands = host.subscribe(`${s.root}.cmd.>`, { max: 1 });
    await host.flush();
    const edge = await as('edge-1', wire.url);
    const parts = edge.subscribe(s.edgeAll('edge-1'), { max: 1 });
    await edge.flush();
    host.publish(s.own('edge-1', 101), new TextEncoder().encode(part));
    edge.publish(`${s.root}.cmd.edge-1.101`, new TextEncoder().encode(command));
    for (const [sub, text] of [
      [parts, part],
      [commands, command],
    ] as const)
      for await (const m of sub) assert.equal(new TextDecoder().decode(m.data), text);
    const heard = wire.heard();
    assert.ok(heard.length > 1000, `the sniffer heard the connections (${heard.length} bytes)`);
    // The INFO the server sends before TLS starts is all a sniffer may read: it says TLS is required.
    assert.match(heard.toString('latin1'), /"tls_required":true/);
    for (const secret of [password('edge-1'), password('host'), part, command, 'CONNECT', s.root])
      assert.equal(heard.includes(Buffer.from(secret)), false, `${secret} crossed the wire in clear`);
  });

  it('refuses a client that speaks NATS in clear, even with the right password', async () => {
    const socket = tcpConnect(nats?.port ?? 0, '127.0.0.1');
    closers.push(async () => void socket.destroy());
    let heard = '';
    socket.on('data', (d: Buffer) => (heard += d.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const deadline = Date.now() + 3000;
    while (!heard.includes('\r\n')) {
      assert.ok(Date.now() < deadline, 'the INFO within 3 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    socket.write(`CONNECT {"verbose":true,"user":"edge-1","pass":"${password('edge-1')}","protocol":1}\r\nSUB etg.> 1\r\nPING\r\n`);
    const timeout = new Promise<'open'>((r) => setTimeout(() => r('open'), 12_000).unref());
    assert.equal(await Promise.race([closed.then(() => 'closed' as const), timeout]), 'closed', 'the server closed the connection');
    assert.doesNotMatch(heard, /\+OK|PONG/, `the server answered a client in clear: ${heard}`);
    // And the nats client told to speak in clear does not connect either.
    await assert.rejects(connect({ servers: nats?.url ?? '', user: 'edge-1', pass: password('edge-1'), tls: null, reconnect: false, timeout: 20_000 }));
  });

  it('refuses no password, a wrong one, and an edge’s password under another edge’s name', async () => {
    const url = nats?.url ?? '';
    const base = { servers: url, reconnect: false, timeout: 20_000, tls: natsTls(cert) };
    await assert.rejects(connect(base), /Authorization/i);
    await assert.rejects(connect({ ...base, user: 'edge-1', pass: 'not-its-password-0123456789abcdef' }), /Authorization/i);
    await assert.rejects(connect({ ...base, user: 'edge-2', pass: password('edge-1') }), /Authorization/i);
    await assert.rejects(connect({ ...base, user: 'host', pass: password('edge-1') }), /Authorization/i);
    // The control: its own password passes.
    await (await as('edge-1')).flush();
  });

  it('never talks to a NATS server whose certificate is not the one pinned', async () => {
    // An impostor on the network: a NATS server with TLS and a certificate of its own, and every user.
    const fake = await natsCertificate(path.join(dir, 'impostor'), ['127.0.0.1']);
    const impostor = await startNatsServer({ dir: path.join(dir, 'impostor-nats'), users, tls: { certFile: fake.certFile, keyFile: fake.keyFile } });
    closers.push(() => impostor.close());
    await assert.rejects(as('edge-1', impostor.url), /certificate|self.signed|pinned/i);
    // Without a pin (the system's authorities) neither server is trusted.
    await assert.rejects(connect({ servers: nats?.url ?? '', user: 'edge-1', pass: password('edge-1'), reconnect: false, timeout: 20_000, tls: {} }));
    // The control: the impostor's own pin reaches it.
    await (await as('edge-1', impostor.url, { pin: fake })).flush();
  });

  it('lets an edge read and publish only its own subjects over TLS', async () => {
    const s = tableSubjects(TABLE);
    const other = tableSubjects('T2');
    const host = await as('host');
    const edge2 = await as('edge-2');
    const errors: string[] = [];
    const watching = (async () => {
      for await (const st of edge2.status()) if (st.type === 'error') errors.push(String(st.data));
    })();
    // edge-2 listens on edge-1's subjects, on the whole table, on another table's: refused, reads nothing.
    const read: string[] = [];
    for (const subject of [s.edgeAll('edge-1'), `${s.root}.>`, other.edgeAll('edge-2'), other.publicAll, '>'])
      edge2.subscribe(subject, { callback: (err, m) => (err ? errors.push(err.message) : read.push(m.subject)) });
    // It publishes edge-1's command, another table's, a public part, the enrolment: none reaches the host.
    const arrived: string[] = [];
    host.subscribe('>', { callback: (err, m) => err || (m.subject.startsWith('etg.') && arrived.push(m.subject)) });
    await host.flush();
    await edge2.flush().catch(() => undefined);
    for (const subject of [`${s.root}.cmd.edge-1.101`, `${other.root}.cmd.edge-2.101`, `${s.root}.pub.round`, s.enrol, s.attach('edge-1')])
      edge2.publish(subject, new Uint8Array([1]));
    // The control: its own command subject passes.
    edge2.publish(`${s.root}.cmd.edge-2.102`, new Uint8Array([2]));
    host.publish(s.own('edge-1', 101), new Uint8Array([3]));
    host.publish(other.own('edge-2', 101), new Uint8Array([4]));
    await edge2.flush().catch(() => undefined);
    await host.flush();
    const deadline = Date.now() + 3000;
    while (errors.length < 15 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(read, [], 'edge-2 read nothing of edge-1 nor of another table');
    assert.deepEqual(
      arrived.filter((x) => x.includes('.cmd.') || x.endsWith('.enrol') || x.includes('.pub.') || x.includes('.attach.')),
      [`${s.root}.cmd.edge-2.102`],
    );
    assert.ok(errors.filter((e) => /subscription/i.test(e)).length >= 5, `the server refused the subscriptions: ${errors.join('; ')}`);
    // The server's -ERR for each: five subscriptions and five publishes.
    assert.ok(errors.filter((e) => e === 'PERMISSIONS_VIOLATION').length >= 10, `the server refused the publishes: ${errors.join('; ')}`);
    void watching;
  });
});

describe('rotating an edge’s NATS password', () => {
  it('makes a new one for the edge whose line was deleted, keeps the others’, and the old one is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nats-rotate-'));
    let server: NatsServer | null = null;
    try {
      const edgesDir = path.join(dir, 'edges');
      const first = edgePasswords(edgesDir, ['edge-1', 'edge-2']);
      assert.equal(readFileSync(path.join(edgesDir, 'edge-1.password'), 'utf8').trim(), first.get('edge-1'));
      assert.equal(statSync(path.join(edgesDir, 'users.json')).mode & 0o077, 0, 'users.json is owner-only');
      // The operator deletes edge-1's line (its machine was lost) and the host starts again.
      const file = path.join(edgesDir, 'users.json');
      const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      delete kept['edge-1'];
      writeFileSync(file, JSON.stringify(kept));
      const second = edgePasswords(edgesDir, ['edge-1', 'edge-2']);
      assert.notEqual(second.get('edge-1'), first.get('edge-1'));
      assert.equal(second.get('edge-2'), first.get('edge-2'));
      assert.equal(second.get('host'), first.get('host'));
      assert.equal(readFileSync(path.join(edgesDir, 'edge-1.password'), 'utf8').trim(), second.get('edge-1'));
      const c = await natsCertificate(edgesDir, ['127.0.0.1']);
      const u = (name: string) => ({ user: name, password: second.get(name) ?? '', ...edgePermissions(TABLE, name) });
      server = await startNatsServer({ dir: path.join(dir, 'nats'), users: [u('edge-1'), u('edge-2')], tls: { certFile: c.certFile, keyFile: c.keyFile } });
      const base = { servers: server.url, reconnect: false, timeout: 20_000, tls: natsTls(c) };
      await assert.rejects(connect({ ...base, user: 'edge-1', pass: first.get('edge-1') ?? '' }), /Authorization/i);
      for (const name of ['edge-1', 'edge-2']) await (await connect({ ...base, user: name, pass: second.get(name) ?? '' })).close();
    } finally {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
