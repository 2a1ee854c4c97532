#!/bin/sh
# The rules and the unit go with the package; the data folder (the ledger) never does.
set -e
if [ "$1" = remove ] || [ "$1" = purge ]; then
  systemctl disable --now macau-etg-kiosk.service 2>/dev/null || true
  rm -f /etc/udev/rules.d/60-macau-etg-kiosk.rules /etc/systemd/system/macau-etg-kiosk.service
  systemctl daemon-reload 2>/dev/null || true
fi
