#!/bin/sh
# The rules and the unit go with the package; the data folder (the ledger) never does.
set -e
if [ "$1" = remove ] || [ "$1" = purge ]; then
  systemctl disable --now macau-etg-kiosk.service etg-witness.socket etg-witness.service 2>/dev/null || true
  # The witness's key, folder and record stay: they vouch for the ledger that stays too.
  rm -f /etc/udev/rules.d/60-macau-etg-kiosk.rules /etc/systemd/system/macau-etg-kiosk.service
  rm -f /etc/systemd/system/etg-witness.socket /etc/systemd/system/etg-witness.service
  rm -rf /etc/systemd/system/etg-witness.service.d
  systemctl daemon-reload 2>/dev/null || true
fi
