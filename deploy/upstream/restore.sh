#!/bin/sh
# Restores an upstream dump into a NEW database (never over the live one): check it with
# `upstream verify --pg …`, then point the service at it. Kiosks resend what the restored copy lacks
# (a 409 gap rewinds them to its head), since they never delete their journal (docs/upstream.md).
# Usage: restore.sh DUMP NEW_DB
set -eu
DUMP=${1:?usage: restore.sh DUMP NEW_DB}
NEW=${2:?usage: restore.sh DUMP NEW_DB}
createdb ${PGHOST:+--host="$PGHOST"} ${PGPORT:+--port="$PGPORT"} "$NEW"
pg_restore --exit-on-error --no-owner --single-transaction ${PGHOST:+--host="$PGHOST"} ${PGPORT:+--port="$PGPORT"} --dbname="$NEW" "$DUMP"
echo "restored $DUMP into $NEW"
