#!/bin/sh
# After the .deb is installed: the kiosk's user and groups, its data folder, the udev rules and the
# session unit. The kiosk does not start here: a technician enables it (docs/deploy.md).
set -e
RES=/opt/macau-etg-kiosk/resources/deploy
getent group etg-devices >/dev/null || groupadd --system etg-devices
getent passwd etg-kiosk >/dev/null || useradd --system --create-home --home-dir /var/lib/macau-etg-kiosk --shell /usr/sbin/nologin --groups video,input,dialout,etg-devices etg-kiosk
install -d -o etg-kiosk -g etg-kiosk -m 0700 /var/lib/macau-etg-kiosk
# The ledger witness: its own user, its key out of the kiosk user's reach (docs/deploy.md). With a TPM
# the key is made and sealed by the witness at its first start; without one, a key file only root reads.
getent passwd etg-witness >/dev/null || useradd --system --no-create-home --home-dir /var/lib/etg-witness --shell /usr/sbin/nologin etg-witness
install -d -m 0755 /etc/etg-witness
install -m 0644 "$RES/systemd/etg-witness.socket" /etc/systemd/system/etg-witness.socket
install -m 0644 "$RES/systemd/etg-witness.service" /etc/systemd/system/etg-witness.service
if [ -e /dev/tpmrm0 ]; then
  install -d -m 0755 /etc/systemd/system/etg-witness.service.d
  install -m 0644 "$RES/systemd/etg-witness.service.d/tpm.conf" /etc/systemd/system/etg-witness.service.d/tpm.conf
elif [ ! -e /etc/etg-witness/witness.key ]; then
  /opt/macau-etg-kiosk/resources/tools/bin/etg witness keygen --out /etc/etg-witness/witness.key
fi
install -d -m 0755 /etc/macau-etg-kiosk
# The kiosk checks its journal against the witness and sends it every head.
[ -e /etc/macau-etg-kiosk/kiosk.env ] || printf 'ETG_KIOSK_ARGS=--witness=/run/etg-witness/witness.sock\n' > /etc/macau-etg-kiosk/kiosk.env
[ -e /etc/macau-etg-kiosk/touch-map ] || install -m 0644 "$RES/x11/touch-map.example" /etc/macau-etg-kiosk/touch-map.example
install -m 0644 "$RES/udev/60-macau-etg-kiosk.rules" /etc/udev/rules.d/60-macau-etg-kiosk.rules
install -m 0644 "$RES/systemd/macau-etg-kiosk.service" /etc/systemd/system/macau-etg-kiosk.service
udevadm control --reload-rules 2>/dev/null || true
udevadm trigger --subsystem-match=usb 2>/dev/null || true
systemctl daemon-reload 2>/dev/null || true
systemctl enable --now etg-witness.socket 2>/dev/null || true
