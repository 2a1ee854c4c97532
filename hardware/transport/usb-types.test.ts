/// <reference types="w3c-web-usb" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { usb } from 'usb';
import type { UsbDeviceLike } from './usb-types.js';

// Compile-time check: the standard WebUSB USBDevice (which node-usb 3.x's UsbDevice extends) is a
// UsbDeviceLike. If someone narrows the interface incompatibly, the type check fails here.
type Assignable<T, U> = T extends U ? true : false;
const webUsbFits: Assignable<USBDevice, UsbDeviceLike> = true;
type NodeUsbDevice = Awaited<ReturnType<typeof usb.getDevices>>[number]; // node-usb 3.x UsbDevice
const nodeUsbFits: Assignable<NodeUsbDevice, UsbDeviceLike> = true;

describe('UsbDeviceLike', () => {
  it('is satisfied by the WebUSB USBDevice type and by node-usb 3.x UsbDevice', () => {
    assert.equal(webUsbFits, true);
    assert.equal(nodeUsbFits, true);
  });
});
