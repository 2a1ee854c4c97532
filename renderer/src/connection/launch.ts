import { BRIDGE_PORT_MESSAGE, ViewName, type KioskBridge } from '../../../protocol/index.js';
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
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  return { view, token, connect: () => webSocketTransport(wsUrl) };
}
