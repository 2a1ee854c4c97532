// The largest message the bridge publishes must cross the stadium's NATS server. An update carries
// its patch and its whole in one message (subjects.ts, encodeUpdate), each up to the protocol's
// MAX_HOST_MESSAGE_BYTES: over 1 MiB, where NATS's default max_payload (1 MiB) makes the client's
// publish throw (MAX_PAYLOAD_EXCEEDED) inside the host's view hub.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { MAX_PUBLISHED_UPDATE_BYTES } from './subjects.js';
import { MAX_HOST_MESSAGE_BYTES } from '../../protocol/index.js';

describe("the stadium NATS server takes the bridge's largest update", { timeout: 60_000 }, () => {
  let dir: string;
  let nats: NatsServer;
  let nc: NatsConnection;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nats-max-payload-'));
    nats = await startNatsServer({ dir: path.join(dir, 'nats') });
    nc = await connect({ servers: nats.url });
  });
  after(async () => {
    await nc?.close();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an update of a largest patch and a largest whole is published and delivered whole', async () => {
    assert.ok(MAX_PUBLISHED_UPDATE_BYTES >= 2 * MAX_HOST_MESSAGE_BYTES, 'the bound covers a patch and a whole');
    const data = new Uint8Array(MAX_PUBLISHED_UPDATE_BYTES).fill(0x61);
    const got = new Promise<number>((resolve) => {
      nc.subscribe('t.big', { max: 1, callback: (_e, m) => resolve(m.data.byteLength) });
    });
    await nc.flush();
    nc.publish('t.big', data);
    assert.equal(await got, data.byteLength);
  });
});
