// A remote station's SAS line relayed by its agent (docs/sas.md, "Remote stations"): the hostile
// agent first. A link carries only the SAS line of the station its credential greeted it as, only
// where the configuration relays that station's line; no message can name another station; a
// replaced link's bytes are not the station's; a flood is closed; bytes before the port is open
// reach nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { BytePort } from '../../hardware/transport/byte-port.js';
import { DEVICE_PROTOCOL_VERSION, type HostDeviceMessage } from '../../protocol/index.js';
import type { CreditRule } from './credit-rule/credit-rule.js';
import type { Ledger } from '../../ledger/index.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { RemoteAcceptors, type DeviceRateKind } from './remote-acceptors.js';
import { RemoteSas } from './remote-sas.js';

const log = pino({ level: 'silent' });
const SECRET = (station: number) => `secret-of-station-${station}-`.padEnd(40, 'x');

function rig(configured: number[]) {
  const sas = new RemoteSas(new Set(configured), log);
  const stations = { verify: (s: number, secret: string) => secret === SECRET(s), onRevoked: () => () => undefined } as unknown as RemoteStations;
  const acceptors = new RemoteAcceptors({
    ledger: {} as Ledger,
    log,
    credits: {} as CreditRule,
    stations,
    hasStation: (s) => s > 100 && s <= 104,
    accepted: () => [100],
    relayed: { attachRelayed: () => undefined, detachRelayed: () => Promise.resolve(), wake: () => undefined },
    sas,
  });
  /** The listener's rate, as a budget of SAS messages a link may send (lan-server.ts holds the real buckets). */
  let budget = Infinity;
  const agent = (station: number, secret = SECRET(station)) => {
    const got: HostDeviceMessage[] = [];
    const closed: string[] = [];
    const conn = acceptors.open(
      (text) => got.push(JSON.parse(text) as HostDeviceMessage),
      (code, reason) => closed.push(`${code} ${reason}`),
      (kind: DeviceRateKind) => (kind !== 'sas' || budget-- > 0 ? 'ok' : 'rate'),
    );
    const say = (m: object) => conn.receive(JSON.stringify(m));
    return {
      got,
      closed,
      say,
      hello: () => say({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station, secret, acceptor: 'id003', mode: 'relay' }),
      bytes: (b: number[]) => say({ type: 'sas-bytes', data: Buffer.from(b).toString('base64') }),
      refusals: () => got.filter((m) => m.type === 'refused'),
      dispose: () => conn.dispose(),
    };
  };
  /** The station's SAS port as its machine opens it, and what it heard. */
  const machine = async (station: number) => {
    const port: BytePort = await sas.opener(station)();
    const heard: number[] = [];
    let lost = false;
    port.onData((b) => heard.push(...b));
    port.onClose(() => (lost = true));
    return { port, heard, lost: () => lost };
  };
  return { sas, acceptors, agent, machine, limit: (n: number) => (budget = n) };
}

describe("a remote station's SAS line through its agent: the hostile agent", () => {
  it('an agent greeted as a station without a relayed SAS line is refused, and reaches no other station', async () => {
    const r = rig([101]);
    const a101 = r.agent(101);
    a101.hello();
    assert.equal(a101.got[0]?.type === 'device-welcome' && a101.got[0].sas, true, 'the welcome tells 101 to open its SAS port');
    a101.say({ type: 'sas-port', open: true });
    const m101 = await r.machine(101);
    const a102 = r.agent(102);
    a102.hello();
    assert.equal(a102.got[0]?.type === 'device-welcome' && a102.got[0].sas, undefined, 'no SAS port for 102');
    a102.say({ type: 'sas-port', open: true });
    a102.bytes([0x81]);
    assert.equal(a102.refusals().length, 2, 'both refused');
    assert.match(JSON.stringify(a102.refusals()[0]), /station 102 has no SAS link/);
    await assert.rejects(r.sas.opener(102)(), /no SAS port open/);
    assert.deepEqual(m101.heard, [], "102's bytes reached nothing of 101's");
    a101.bytes([0x81]);
    assert.deepEqual(m101.heard, [0x81], "101's own bytes reach 101's machine");
  });

  it('no message names a station: one that tries is refused by the schema and reaches nothing', async () => {
    const r = rig([101, 102]);
    const a101 = r.agent(101);
    a101.hello();
    a101.say({ type: 'sas-port', open: true });
    const m101 = await r.machine(101);
    const a102 = r.agent(102);
    a102.hello();
    a102.say({ type: 'sas-port', open: true });
    const m102 = await r.machine(102);
    a102.say({ type: 'sas-bytes', station: 101, data: Buffer.from([0x01, 0x02]).toString('base64') });
    a102.say({ type: 'sas-port', station: 101, open: false });
    assert.equal(a102.refusals().length, 2);
    assert.deepEqual(m101.heard, []);
    assert.equal(m101.lost(), false, "101's port still open");
    a102.bytes([0x05]);
    assert.deepEqual(m102.heard, [0x05], "102's bytes reach 102's machine only");
    assert.deepEqual(m101.heard, []);
  });

  it('a SAS message before the hello, or with a wrong credential, is refused and the link closed', async () => {
    const r = rig([101]);
    const early = r.agent(101);
    early.bytes([0x81]);
    assert.deepEqual(early.closed, ['1008 hello-device required']);
    const forged = r.agent(101, SECRET(102));
    forged.hello();
    assert.deepEqual(forged.closed, ['1008 unauthorized']);
    forged.say({ type: 'sas-port', open: true });
    await assert.rejects(r.sas.opener(101)(), /no SAS port open/, 'a forged link opened nothing');
  });

  it("a replaced link's bytes are not the station's; bytes before the port is open reach nothing", async () => {
    const r = rig([101]);
    const old = r.agent(101);
    old.hello();
    old.bytes([0x11]);
    old.say({ type: 'sas-port', open: true });
    const m1 = await r.machine(101);
    assert.deepEqual(m1.heard, [], 'bytes before the open went nowhere');
    const fresh = r.agent(101);
    fresh.hello();
    assert.equal(m1.lost(), true, "the old link's port ended with it");
    fresh.say({ type: 'sas-port', open: true });
    const m2 = await r.machine(101);
    old.bytes([0x22]);
    old.dispose();
    fresh.bytes([0x33]);
    assert.deepEqual(m2.heard, [0x33]);
    assert.equal(m2.lost(), false, "the replaced link's close does not end the newer link's port");
  });

  it('a SAS message past its rate closes the link, and reaches nothing', async () => {
    const r = rig([101]);
    const a = r.agent(101);
    a.hello();
    a.say({ type: 'sas-port', open: true });
    const m = await r.machine(101);
    r.limit(3);
    for (let i = 0; i < 3; i++) a.bytes([0x81]);
    assert.deepEqual(a.closed, [], 'within the rate, a busy line');
    a.bytes([0x99]);
    assert.deepEqual(a.closed, ['1008 rate limit']);
    assert.deepEqual(m.heard, [0x81, 0x81, 0x81], 'the message over the rate was not relayed');
  });
});
