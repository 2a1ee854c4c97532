import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeId003 } from './billacceptor/id003/frame.js';
import { encodeSsp } from './billacceptor/ssp/frame.js';
import { encodeShoeFrame, MSG } from './shoe/framed.js';
import { id003Rx, id003Tx, shoeRx, shoeTx, sspRx, sspTx } from './wire-frame.js';

describe('wire frames as a trace shows them', () => {
  it("ID-003: the poll and its answers, by the protocol's names, with the bytes", () => {
    assert.deepEqual(id003Tx(encodeId003(0x11)), { dir: 'tx', hex: 'FC 05 11 27 56', meaning: 'STATUS REQUEST' });
    assert.equal(id003Tx(encodeId003(0xc3, [1])).meaning, 'SET INHIBIT [01]');
    const enable = { code: 0x11, data: new Uint8Array() };
    assert.deepEqual(id003Rx(enable, encodeId003(0x11)), { dir: 'rx', hex: 'FC 05 11 27 56', meaning: 'ENABLE' });
    assert.equal(id003Rx({ code: 0x13, data: new Uint8Array([0x63]) }, encodeId003(0x13, [0x63])).meaning, 'ESCROW code 0x63');
    assert.equal(id003Rx({ code: 0x17, data: new Uint8Array([0x79]) }, encodeId003(0x17, [0x79])).meaning, 'REJECTING: inhibited denomination');
    const version = new TextEncoder().encode('i(HKD)100-SS ID003');
    assert.equal(id003Rx({ code: 0x88, data: version }, encodeId003(0x88, version)).meaning, 'GET VERSION "i(HKD)100-SS ID003"');
    assert.equal(id003Rx({ code: 0xc3, data: new Uint8Array([1]) }, encodeId003(0xc3, [1])).meaning, 'SET INHIBIT (echo) [01]');
  });

  it('SSP: the command under the stuffing and the sequence bit, the events of a poll reply', () => {
    const poll = sspTx(encodeSsp(0x80, [0x07]));
    assert.equal(poll.meaning, 'POLL · seq 1');
    assert.match(poll.hex, /^7F 80 01 07 /);
    assert.equal(sspTx(encodeSsp(0x00, [0x7e, 1, 2])).meaning, 'encrypted command (eSSP) · seq 0');
    assert.equal(sspRx(new Uint8Array([0xf0, 0xef, 0x03, 0xee, 0x03, 0xeb])).meaning, 'OK, READ 03, CREDIT 03, STACKED');
    assert.equal(sspRx(new Uint8Array([0xf0, 0x01, 0x02, 0x03, 0x04])).meaning, 'OK, [01 02 03 04]', 'a serial number is shown as its bytes');
    assert.equal(sspRx(new Uint8Array([0x7e, 9, 9])).meaning, 'encrypted reply (eSSP)');
  });

  it('the framed shoe: messages by name, a drawn card by its code', () => {
    assert.equal(shoeTx(encodeShoeFrame(12, MSG.ACK)).meaning, 'ACK #12');
    const card = { seq: 7, type: MSG.CARD_DRAWN, payload: new Uint8Array([7, 0, 1, 0, 0, 0]) };
    assert.equal(shoeRx(card, encodeShoeFrame(7, MSG.CARD_DRAWN, card.payload)).meaning, 'CARD DRAWN AS #7');
  });
});
