// A peer link's `greeted()` is what the LAN listener's connection guard keeps a connection for
// (host/limits/connection-guard.ts): earned while the link is in force. Before, it said true for a
// link the listener had refused after its hello (a malformed message, its files no longer the
// journal's, over its rate) or replaced by a newer link of the same table: harmless while the
// listener cuts a closed peer link at once, but a link closed with any grace (or one its TLS
// socket outlives) was counted as earned and never evicted for a newcomer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { TableId } from '../../terms/transfer-terms.js';
import type { PeerCredentials } from './peer-credentials.js';
import { PeerListener } from './peer-listener.js';
import { PEER_PROTOCOL_VERSION } from './peer-wire.js';

const hello = JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: 'T2', secret: 's'.repeat(43) });

function listener(): PeerListener {
  return new PeerListener({
    self: 'T1' as TableId,
    credentials: { verify: () => true } as unknown as PeerCredentials,
    log: pino({ level: 'silent' }),
    onMessage: () => undefined,
  });
}

describe('a peer link is greeted only while in force', () => {
  it('is greeted after its hello, and no longer once refused for a later message', () => {
    const closes: string[] = [];
    const link = listener().open(
      () => undefined,
      (_c, reason) => closes.push(reason),
    );
    link.receive(hello, false);
    assert.equal(link.greeted(), true);
    link.receive('{"type":"nonsense"}', false);
    assert.deepEqual(closes, ['malformed']);
    assert.equal(link.greeted(), false, 'a refused link is still counted as greeted');
  });

  it('is no longer greeted once replaced by a newer link of the same table, nor once disposed', () => {
    const peers = listener();
    const older = peers.open(
      () => undefined,
      () => undefined,
    );
    older.receive(hello, false);
    const newer = peers.open(
      () => undefined,
      () => undefined,
    );
    newer.receive(hello, false);
    assert.equal(older.greeted(), false, 'a replaced link is still counted as greeted');
    assert.equal(newer.greeted(), true);
    newer.dispose();
    assert.equal(newer.greeted(), false, 'a disposed link is still counted as greeted');
  });
});
