import { BRIDGE_PORT_MESSAGE, StationTables, ViewName, type KioskBridge } from '../../../protocol/index.js';
import { messagePortTransport, webSocketTransport, type Transport } from './transport.js';

declare global {
  interface Window {
    kioskBridge?: KioskBridge;
  }
}

export interface Launch {
  view: ViewName;
  token: string;
  connect(): Promise<Transport>;
  /**
   * A station that follows several tables (its agent says which, `StationTables`): each table's
   * link by its place in the list. Null: one table, the single-table station screen.
   */
  several: { tables: StationTables; connect(index: number): Promise<Transport> } | null;
}

/**
 * Inside Electron the preload's bridge names the view and hands over a MessagePort to the
 * host; in browser mode the path names the view, the query string carries the token and the
 * host is reached over WebSocket on the origin that served the page.
 */
export async function resolveLaunch(): Promise<Launch> {
  const bridge = window.kioskBridge;
  if (bridge) {
    const { view, token } = await bridge.launch();
    return {
      view,
      token,
      several: null,
      connect: () =>
        new Promise((resolve) => {
          const onMessage = (e: MessageEvent) => {
            const port = e.ports[0];
            if (e.source === window && e.data === BRIDGE_PORT_MESSAGE && port) {
              window.removeEventListener('message', onMessage);
              resolve(messagePortTransport(port));
            }
          };
          window.addEventListener('message', onMessage);
          bridge.requestPort();
        }),
    };
  }
  const view = ViewName.parse(location.pathname.replace(/^\/+|\/+$/g, ''));
  const query = new URLSearchParams(location.search);
  const token = query.get('token') ?? '';
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  return { view, token, connect: () => webSocketTransport(wsUrl), several: query.get('tables') === '1' ? await severalTables(wsUrl, token) : null };
}

/**
 * The tables a station agent joined, as it lists them from its enrolment files (the agent's own
 * word on this machine, never a table's): one link each, `/ws/N`.
 */
async function severalTables(wsUrl: string, token: string): Promise<NonNullable<Launch['several']>> {
  const answer = await fetch(`/tables?token=${encodeURIComponent(token)}`, { cache: 'no-store' });
  if (!answer.ok) throw new Error(`the station agent did not list its tables (${answer.status})`);
  const tables = StationTables.parse(await answer.json());
  return { tables, connect: (index) => webSocketTransport(`${wsUrl}/${index}`) };
}
