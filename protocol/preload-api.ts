import type { ViewName } from './views.js';

/**
 * The one API the Electron preload exposes to a screen (as `window.kioskBridge`). In browser
 * mode there is no bridge: the screen reads its view from the URL and the token from the
 * query string, and talks WebSocket to the host instead.
 */
export interface KioskBridge {
  /** Which view this window shows and the launch token for the hello. */
  launch(): Promise<{ view: ViewName; token: string }>;
  /**
   * Asks the main process for a MessagePort to the host. The port arrives as a window
   * `message` event whose data is {@link BRIDGE_PORT_MESSAGE} and whose `ports[0]` is the port.
   */
  requestPort(): void;
}

export const BRIDGE_PORT_MESSAGE = 'kiosk:host-port';
