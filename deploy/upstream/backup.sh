#!/bin/sh
# Dumps the upstream database (custom format: restorable table by table, compressed), checks the
# dump can be read back, and removes dumps older than ETG_BACKUP_KEEP_DAYS. Run as a role that can
# read the whole database (the postgres user, through etg-upstream-backup.service).
set -eu
DB=${ETG_UPSTREAM_DB:-etg_upstream}
DIR=${ETG_BACKUP_DIR:-/var/backups/etg-upstream}
KEEP=${ETG_BACKUP_KEEP_DAYS:-30}
mkdir -p "$DIR"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out="$DIR/$DB-$stamp.dump"
pg_dump --format=custom --no-owner --file="$out.partial" ${PGHOST:+--host="$PGHOST"} ${PGPORT:+--port="$PGPORT"} "$DB"
# A dump that pg_restore cannot list is no backup.
pg_restore --list "$out.partial" >/dev/null
mv "$out.partial" "$out"
find "$DIR" -name "$DB-*.dump" -mtime +"$KEEP" -delete
echo "$out"
