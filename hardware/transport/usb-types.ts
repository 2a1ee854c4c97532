// The WebUSB subset the drivers need. It is written so that both the `usb` package's WebUSB-style
// `USBDevice` (usb 3.x) and the in-process fake (`fake-usb.ts`) satisfy it structurally; see
// `usb-types.test.ts`, which checks the real `USBDevice` type against it.

export type UsbRequestType = 'standard' | 'class' | 'vendor';
export type UsbRecipient = 'device' | 'interface' | 'endpoint' | 'other';
export type UsbTransferStatus = 'ok' | 'stall' | 'babble';

export interface UsbControlSetup {
  requestType: UsbRequestType;
  recipient: UsbRecipient;
  request: number;
  value: number;
  index: number;
}

export interface UsbInResult {
  readonly data?: DataView | undefined;
  readonly status?: UsbTransferStatus | undefined;
}

export interface UsbOutResult {
  readonly bytesWritten: number;
  readonly status?: UsbTransferStatus | undefined;
}

export interface UsbEndpointLike {
  readonly endpointNumber: number;
  readonly direction: 'in' | 'out';
  readonly type: 'bulk' | 'interrupt' | 'isochronous';
  readonly packetSize: number;
}

export interface UsbAlternateLike {
  readonly interfaceClass: number;
  readonly interfaceSubclass: number;
  readonly interfaceProtocol: number;
  readonly endpoints: readonly UsbEndpointLike[];
}

export interface UsbInterfaceLike {
  readonly interfaceNumber: number;
  readonly alternate: UsbAlternateLike;
  readonly claimed: boolean;
}

export interface UsbConfigurationLike {
  readonly configurationValue: number;
  readonly interfaces: readonly UsbInterfaceLike[];
}

export interface UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber?: string | null | undefined;
  readonly manufacturerName?: string | null | undefined;
  readonly productName?: string | null | undefined;
  readonly opened: boolean;
  readonly configuration?: UsbConfigurationLike | null | undefined;
  readonly configurations?: readonly UsbConfigurationLike[] | undefined;
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(configurationValue: number): Promise<void>;
  claimInterface(interfaceNumber: number): Promise<void>;
  releaseInterface(interfaceNumber: number): Promise<void>;
  controlTransferOut(setup: UsbControlSetup, data?: Uint8Array<ArrayBuffer>, timeout?: number): Promise<UsbOutResult>;
  controlTransferIn(setup: UsbControlSetup, length: number, timeout?: number): Promise<UsbInResult>;
  /** node-usb takes a timeout (default 1000 ms) and throws when it expires; browsers wait. */
  transferIn(endpointNumber: number, length: number, timeout?: number): Promise<UsbInResult>;
  transferOut(endpointNumber: number, data: Uint8Array<ArrayBuffer>, timeout?: number): Promise<UsbOutResult>;
  /** Linux only in node-usb; absent in browsers. */
  detachKernelDriver?(interfaceNumber: number): Promise<void>;
}

export interface UsbConnectionEventLike {
  readonly device: UsbDeviceLike;
}

/** `navigator.usb`-shaped: the `usb` export of node-usb 3.x, or the fake bus. */
export interface UsbBusLike {
  getDevices(): Promise<UsbDeviceLike[]>;
  addEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void;
  removeEventListener(type: 'connect' | 'disconnect', listener: (ev: UsbConnectionEventLike) => void): void;
}

export function inBytes(r: UsbInResult): Uint8Array {
  const d = r.data;
  return d ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : new Uint8Array(0);
}

export function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}
