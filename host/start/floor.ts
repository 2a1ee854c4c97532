import { routeConfigOrders } from '../floor/remote-config.js';
import { isRemote } from '../../engine/table/state.js';
import type { BillAcceptors } from '../devices/bill-acceptors.js';
import type { RemoteAcceptors } from '../devices/remote-acceptors.js';
import { wireFloorServices, type WiredFloorServices } from '../floor/floor-services.js';
import { ViewHub } from '../screens/view-hub.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

export interface WiredFloor {
  hub: ViewHub;
  floor: WiredFloorServices;
  /** The remote stations' acceptors, gated by the faults from the moment they exist. */
  gateRemote(remote: RemoteAcceptors): void;
}

/**
 * A configuration order refused or disbelieved (host/floor/remote-config.ts) is the staff-only
 * fault `config-order`, one journalled per order with why, which the upstream raises as its
 * `config-order` alarm (upstream/ingest/kiosk-faults.ts): the floor hears of it at both ends.
 */
export function configOrderAlarm(tilts: Pick<TiltManager, 'raise'>): (message: string) => void {
  return (message) => tilts.raise('config-order', { detail: message.slice(0, 300) });
}

/**
 * The screens' view hub and the floor services (faults, handpays, configuration changes), the
 * faults gating the seated acceptors here and the remote ones at their agents.
 */
export function wireFloor(
  {
    config,
    ledger,
    log,
    softwareVersion,
    sync,
    syncEvents,
    terminalId,
    floorClock,
  }: Pick<Opened, 'config' | 'ledger' | 'log' | 'softwareVersion' | 'sync' | 'syncEvents' | 'terminalId'> & Partial<Pick<Opened, 'floorClock'>>,
  {
    tilts,
    table,
    billAcceptors,
    printers,
    ticketsIn,
    limitNotes,
    authority,
    paramsNow,
    ruleSwitch,
  }: Pick<TableRuntime, 'tilts' | 'table' | 'billAcceptors' | 'printers' | 'ticketsIn' | 'limitNotes' | 'authority' | 'paramsNow' | 'ruleSwitch'>,
): WiredFloor {
  const hub = new ViewHub(config, softwareVersion, table, ledger);
  let remoteGate: RemoteAcceptors | null = null;
  const acceptorGate = {
    setInhibited: (station: number, reason: Parameters<BillAcceptors['setInhibited']>[1], inhibited: boolean) => {
      // A remote station's reasons go to its agent (driver mode) and to the host's own driver (relay mode) alike.
      if (isRemote(table.state.params, station)) remoteGate?.setInhibited(station, reason, inhibited);
      billAcceptors.setInhibited(station, reason, inhibited);
    },
    setAccepted: (d: readonly number[]) => {
      billAcceptors.setAccepted(d);
      remoteGate?.setAccepted();
    },
  };
  const floor = wireFloorServices({
    config,
    ledger,
    log,
    tilts,
    table,
    billAcceptors: acceptorGate,
    params: paramsNow,
    printers,
    ticketsIn,
    limitNotes,
    ...(authority ? { authority } : {}),
    ...(floorClock ? { floorClock } : {}),
    onConfigApplied: () => hub.configChanged(),
    ruleSwitch,
  });
  hub.attachFloor(floor.gate);
  // The back office's configuration orders: checked and made at the next shoe (issue 49 item 6).
  routeConfigOrders(sync, syncEvents, {
    terminalId,
    ledger,
    changes: floor.configChanges,
    log,
    onAlarm: configOrderAlarm(tilts),
  });
  return {
    hub,
    floor,
    gateRemote: (remote) => {
      remoteGate = remote;
    },
  };
}
