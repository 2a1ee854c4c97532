/** Every IPC channel the kiosk uses; main refuses anything else and any sender not on app://kiosk. */
export const IPC = {
  launch: 'kiosk:launch',
  requestPort: 'kiosk:request-port',
  port: 'kiosk:port',
} as const;
