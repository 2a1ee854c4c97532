import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { Outbox, SharedMessage, wholeUpdate, type Update } from '../screens/outbox.js';
import { textFrame, TurnBatch } from './socket-turn.js';

/** A stream that records each write that leaves it (one `_writev` of a corked turn is one). */
function recording() {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, writes };
}

/** A turn the test ends itself. */
function manualBatch() {
  const ends: (() => void)[] = [];
  const batch = new TurnBatch((run) => ends.push(run));
  return { batch, endTurn: () => ends.splice(0).forEach((run) => run()) };
}

describe('an edge’s writes of one turn', () => {
  it('leave each stream as one write at the end of the turn, in order, not one per message', () => {
    const { batch, endTurn } = manualBatch();
    const a = recording();
    const b = recording();
    for (const m of ['round-7', 'own-3', 'ack-1']) batch.write(a.stream, Buffer.from(m));
    batch.write(b.stream, Buffer.from('round-7'));
    assert.deepEqual(a.writes, [], 'nothing leaves before the turn ends');
    endTurn();
    assert.deepEqual(a.writes, [['round-7', 'own-3', 'ack-1']]);
    assert.deepEqual(b.writes, [['round-7']]);
    assert.deepEqual(batch.counters, { turns: 1, uncorked: 2 });
    // The next turn corks again.
    batch.write(a.stream, Buffer.from('round-8'));
    batch.write(a.stream, Buffer.from('own-4'));
    endTurn();
    assert.deepEqual(a.writes.at(-1), ['round-8', 'own-4']);
    assert.deepEqual(batch.counters, { turns: 2, uncorked: 3 });
  });

  it('with the real event loop: one turn’s sends are one write, the next turn’s another', async () => {
    const batch = new TurnBatch();
    const a = recording();
    for (let i = 0; i < 5; i++) batch.write(a.stream, Buffer.from(`m${i}`));
    await new Promise((r) => setImmediate(r));
    batch.write(a.stream, Buffer.from('m5'));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(a.writes, [['m0', 'm1', 'm2', 'm3', 'm4'], ['m5']]);
  });

  it('a stream closed mid-turn takes only its own: the others get every message', () => {
    const { batch, endTurn } = manualBatch();
    const streams = [recording(), recording(), recording()];
    for (const s of streams) s.stream.on('error', () => undefined);
    for (const s of streams) batch.write(s.stream, Buffer.from('round-9'));
    streams[1]?.stream.destroy();
    for (const s of streams) if (!s.stream.destroyed) batch.write(s.stream, Buffer.from('own-9'));
    endTurn();
    assert.deepEqual(streams[0]?.writes, [['round-9', 'own-9']]);
    assert.deepEqual(streams[1]?.writes, []);
    assert.deepEqual(streams[2]?.writes, [['round-9', 'own-9']]);
  });

  it('a stream whose uncork throws does not stop the turn for the others', () => {
    const { batch, endTurn } = manualBatch();
    const bad = { cork: () => undefined, uncork: () => assert.fail('a broken stream'), write: () => true };
    const good = recording();
    batch.write(bad, Buffer.from('x'));
    batch.write(good.stream, Buffer.from('round-1'));
    endTurn();
    assert.deepEqual(good.writes, [['round-1']]);
  });
});

describe('an outbox over a buffered transport (no callback per write)', () => {
  const round = (v: number) => wholeUpdate(v, new SharedMessage(`round-${v}-xxxxxxxxxx`));

  it('sends straight while below its high water, and past it keeps only the latest of each slot until drained', () => {
    let buffered = 0;
    const sent: string[] = [];
    const box = new Outbox({ send: (m) => ((buffered += m.size), sent.push(m.text)), buffered: () => buffered }, { highWater: 40, maxReplies: 4 });
    box.latest('public:round', round(1));
    box.latest('public:round', round(2));
    assert.deepEqual(sent, ['round-1-xxxxxxxxxx', 'round-2-xxxxxxxxxx'], 'below the mark: straight out');
    // Past the mark (36 + 18 bytes not yet written out): the socket is slow.
    box.latest('public:round', round(3));
    for (let v = 4; v <= 9; v++) box.latest('public:round', round(v));
    box.reply(new SharedMessage('ack'));
    assert.equal(sent.length, 3);
    assert.equal(box.inTransit(), 54);
    // Nothing goes while the socket holds past the mark, whatever is asked.
    box.drained();
    assert.equal(sent.length, 3);
    buffered = 0;
    box.drained();
    assert.deepEqual(sent.slice(3), ['round-9-xxxxxxxxxx', 'ack'], 'superseded frames dropped; the latest and the reply in order');
    assert.equal(box.counters.superseded, 5);
  });

  it('an update after one superseded goes whole; one that follows what was sent goes as its patch', () => {
    let buffered = 0;
    const sent: string[] = [];
    const box = new Outbox({ send: (m) => ((buffered += m.size), sent.push(m.text)), buffered: () => buffered }, { highWater: 1, maxReplies: 4 });
    const u = (v: number): Update => ({
      version: v,
      patch: v > 1 ? new SharedMessage(`p${v}`) : null,
      whole: () => new SharedMessage(`w${v}`),
    });
    box.latest('public:round', u(1));
    box.latest('public:round', u(2));
    box.latest('public:round', u(3));
    buffered = 0;
    box.drained();
    buffered = 0;
    box.latest('public:round', u(4));
    assert.deepEqual(sent, ['w1', 'w3', 'p4']);
  });

  it('messages made from bytes go as those bytes; their text is decoded only when asked', () => {
    const bytes = new TextEncoder().encode('{"type":"public","part":"round","state":"庄"}');
    const m = SharedMessage.ofBytes(bytes);
    assert.equal(m.bytes, bytes);
    assert.equal(m.size, bytes.byteLength);
    assert.equal(m.text, '{"type":"public","part":"round","state":"庄"}');
  });
});

describe('a message’s WebSocket frame, made once', () => {
  it('is read by a `ws` client as the text, at every length class, in order with what `ws` sends itself', async () => {
    const server = createServer();
    const wss = new WebSocketServer({ server, perMessageDeflate: false });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const texts = ['short', 'é'.repeat(200), 'x'.repeat(70_000)];
    const message = new SharedMessage(texts[1] ?? '');
    assert.equal(textFrame(message), textFrame(message), 'the same bytes for every connection');
    try {
      const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const got: string[] = [];
      const all = new Promise<void>((resolve) =>
        client.on('message', (data) => {
          got.push(String(data));
          if (got.length === 4) resolve();
        }),
      );
      const [ws, req] = await new Promise<[WebSocket, IncomingMessage]>((r) => wss.once('connection', (w, q) => r([w, q])));
      assert.equal(ws.extensions, '');
      const batch = new TurnBatch();
      batch.write(req.socket, textFrame(new SharedMessage(texts[0] ?? '')));
      batch.hold(req.socket);
      ws.send('from ws');
      batch.write(req.socket, textFrame(message));
      batch.write(req.socket, textFrame(new SharedMessage(texts[2] ?? '')));
      await all;
      assert.deepEqual(got, [texts[0], 'from ws', texts[1], texts[2]]);
      client.close();
    } finally {
      wss.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
