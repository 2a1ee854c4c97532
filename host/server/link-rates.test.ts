import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { DEVICE_LIMITS, linkRates } from './lan-server.js';

// A malformed or out-of-role message is held to the acceptor's message rate and counted apart: past
// the rate, linkRates said 'close' as it does past the count, and the link was closed as
// 'malformed messages'. It now says 'rate' for the rate, 'close' for the count.
describe("a station device link's rates", () => {
  it('a malformed message over the message rate is over the rate, not one malformed too many', () => {
    const allow = linkRates(pino({ level: 'silent' }));
    for (let i = 0; i < DEVICE_LIMITS.burst; i++) assert.equal(allow('device', 0), 'ok');
    assert.equal(allow('malformed', 0), 'rate');
    assert.equal(allow('device', 0), 'rate');
  });

  it('malformed messages within the rate past their count: close', () => {
    const allow = linkRates(pino({ level: 'silent' }));
    const said = Array.from({ length: 30 }, () => allow('malformed', 0));
    assert.ok(said.includes('refused') && said.at(-1) === 'close', said.join(' '));
    assert.ok(!said.includes('rate'));
  });
});
