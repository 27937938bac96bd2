#!/usr/bin/env bash
# Back up Hangar's PostgreSQL database: one pg_dump in custom format, checked, then the oldest dumps rotated away.
#
#   deploy/backup/pg_backup.sh [--dir DIR] [--keep N]
#
# Reads DATABASE_URL (postgres://user:password@host:port/name), HANGAR_BACKUP_DIR (default /var/backups/hangar) and
# HANGAR_BACKUP_KEEP (default 14) from the environment; when DATABASE_URL is not set it sources HANGAR_ENV_FILE
# (default /etc/hangar/hangar.env). Options override the environment.
#
# Writes DIR/hangar-<UTC time>.dump (mode 0600) through a temporary file, so a failed or interrupted dump never
# leaves a file that looks like a backup and never rotates a good one away; checks the archive with
# `pg_restore --list`; then deletes all but the newest N dumps. Prints the path of the new dump. Exit status: 0 done,
# 1 the dump failed (nothing rotated), 2 bad usage or configuration. Restore: deploy/backup/pg_restore.sh.
# pg_dump must be the server's major version or newer (Debian: postgresql-client-<major>).
set -euo pipefail
umask 077

die() { echo "pg_backup.sh: $*" >&2; exit 2; }

if [[ -z "${DATABASE_URL:-}" ]]; then
  env_file="${HANGAR_ENV_FILE:-/etc/hangar/hangar.env}"
  if [[ -r "$env_file" ]]; then
    set -a
    # shellcheck disable=SC1090
    . "$env_file"
    set +a
  fi
fi

backup_dir="${HANGAR_BACKUP_DIR:-/var/backups/hangar}"
keep="${HANGAR_BACKUP_KEEP:-14}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) [[ $# -ge 2 ]] || die "--dir needs a folder"; backup_dir="$2"; shift 2 ;;
    --keep) [[ $# -ge 2 ]] || die "--keep needs a number"; keep="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (usage: pg_backup.sh [--dir DIR] [--keep N])" ;;
  esac
done

[[ -n "${DATABASE_URL:-}" ]] || die "DATABASE_URL is not set (and no ${HANGAR_ENV_FILE:-/etc/hangar/hangar.env} to read it from)"
case "$DATABASE_URL" in
  postgres://*|postgresql://*) ;;
  *) die "DATABASE_URL is '${DATABASE_URL%%://*}://...', not PostgreSQL: this script backs up PostgreSQL only (an SQLite file is backed up with: sqlite3 FILE '.backup COPY')" ;;
esac
[[ "$keep" =~ ^[1-9][0-9]*$ ]] || die "the number of dumps to keep must be 1 or more, got '$keep' (HANGAR_BACKUP_KEEP or --keep)"
command -v pg_dump >/dev/null || die "pg_dump is not installed (Debian: apt-get install postgresql-client)"

mkdir -p "$backup_dir" || die "cannot create the backup folder $backup_dir"
[[ -w "$backup_dir" ]] || die "the backup folder $backup_dir is not writable by $(id -un)"

# One backup at a time in a folder: a second one waits for the first (at most 1 hour).
exec 9>"$backup_dir/.pg_backup.lock"
flock -w 3600 9 || { echo "pg_backup.sh: another backup into $backup_dir has run for over an hour; giving up" >&2; exit 1; }

stamp="$(date -u +%Y%m%dT%H%M%S.%3NZ)"  # sorts in time order; milliseconds so two quick runs never collide
final="$backup_dir/hangar-$stamp.dump"
partial="$backup_dir/.hangar-$stamp.dump.partial"
trap 'rm -f "$partial"' EXIT

started=$SECONDS
if ! pg_dump --format=custom --compress=6 --no-password --dbname="$DATABASE_URL" --file="$partial"; then
  echo "pg_backup.sh: pg_dump failed (see above); no backup written, none rotated" >&2
  exit 1
fi
if ! pg_restore --list "$partial" >/dev/null; then
  echo "pg_backup.sh: the new dump is not a readable archive; discarded, none rotated" >&2
  exit 1
fi
mv "$partial" "$final"
trap - EXIT

# Rotation: the names sort by time; keep the newest $keep.
mapfile -t dumps < <(find "$backup_dir" -maxdepth 1 -type f -name 'hangar-*.dump' -printf '%f\n' | sort -r)
removed=0
for old in "${dumps[@]:$keep}"; do
  rm -f -- "$backup_dir/$old"
  removed=$((removed + 1))
done

size="$(du -h "$final" | cut -f1)"
echo "pg_backup.sh: wrote $final ($size in $((SECONDS - started)) s); $(( ${#dumps[@]} - removed )) dumps kept, $removed older removed" >&2
echo "$final"
