#!/bin/sh
# After the .deb is installed: the kiosk's user and groups, its data folder, the udev rules and the
# session unit. The kiosk does not start here: a technician enables it (docs/deploy.md).
set -e
RES=/opt/macau-etg-kiosk/resources/deploy
getent group etg-devices >/dev/null || groupadd --system etg-devices
getent passwd etg-kiosk >/dev/null || useradd --system --create-home --home-dir /var/lib/macau-etg-kiosk --shell /usr/sbin/nologin --groups video,input,dialout,etg-devices etg-kiosk
install -d -o etg-kiosk -g etg-kiosk -m 0700 /var/lib/macau-etg-kiosk
install -d -m 0755 /etc/macau-etg-kiosk
[ -e /etc/macau-etg-kiosk/touch-map ] || install -m 0644 "$RES/x11/touch-map.example" /etc/macau-etg-kiosk/touch-map.example
install -m 0644 "$RES/udev/60-macau-etg-kiosk.rules" /etc/udev/rules.d/60-macau-etg-kiosk.rules
install -m 0644 "$RES/systemd/macau-etg-kiosk.service" /etc/systemd/system/macau-etg-kiosk.service
udevadm control --reload-rules 2>/dev/null || true
udevadm trigger --subsystem-match=usb 2>/dev/null || true
systemctl daemon-reload 2>/dev/null || true
