#!/usr/bin/env bash
# Restore a Hangar backup (a pg_backup.sh dump) into a given PostgreSQL database, all or nothing.
#
#   deploy/backup/pg_restore.sh [--create] [--force] DUMP_FILE TARGET_DATABASE_URL
#
#   --create  create the target database first (it must not exist yet); the server's "postgres" database is used
#             to create it, so the URL's user needs CREATEDB
#   --force   restore into a database that already has tables: the dump's tables are DROPPED and re-created
#             (never use it on the live database while the site and workers run)
#
# The whole restore is one transaction (--single-transaction --exit-on-error): it either completes or leaves the
# target as it was. Objects are owned by the URL's user (--no-owner --no-privileges), so a dump restores on
# another server or under another role. Without --force, a target that already has tables is refused: restoring
# never overwrites data by accident. Afterwards it prints the row counts of Hangar's main tables.
#
# Usual drill (docs/deployment.md, "Backups and the restore drill"): restore the newest dump into a NEW database,
#   deploy/backup/pg_restore.sh --create /var/backups/hangar/hangar-....dump postgres://hangar:PW@db:5432/hangar_restored
# check it (`DATABASE_URL=...hangar_restored python manage.py migrate --check`), then point DATABASE_URL at it or
# drop it. Exit status: 0 restored, 1 the restore failed (target unchanged), 2 bad usage or refused.
set -euo pipefail

die() { echo "pg_restore.sh: $*" >&2; exit 2; }
usage="usage: pg_restore.sh [--create] [--force] DUMP_FILE TARGET_DATABASE_URL"

create=0
force=0
positional=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --create) create=1; shift ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1' ($usage)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -eq 2 ]] || die "expected a dump file and a target database URL, got ${#positional[@]} argument(s) ($usage)"
dump="${positional[0]}"
target="${positional[1]}"

[[ -f "$dump" ]] || die "no dump file at $dump"
case "$target" in
  postgres://*|postgresql://*) ;;
  *) die "the target '$target' is not a PostgreSQL URL (postgres://user:password@host:port/name)" ;;
esac
command -v pg_restore >/dev/null || die "pg_restore is not installed (Debian: apt-get install postgresql-client)"

# The database name is the URL's path (before any ?query); only plain names are accepted.
rest="${target#*://}"
[[ "$rest" == */* ]] || die "the target URL names no database: $target"
path_and_query="${rest#*/}"
dbname="${path_and_query%%\?*}"
[[ "$dbname" =~ ^[A-Za-z_][A-Za-z0-9_-]{0,62}$ ]] || die "the target database name '$dbname' is not a plain name (letters, digits, _ and -)"
query=""
[[ "$path_and_query" == *\?* ]] && query="?${path_and_query#*\?}"
server="${target%/"$path_and_query"}"  # scheme://user:password@host:port

pg_restore --list "$dump" >/dev/null 2>&1 || die "$dump is not a pg_dump custom-format archive (pg_restore --list cannot read it)"

if [[ "$create" == 1 ]]; then
  command -v createdb >/dev/null || die "createdb is not installed (Debian: apt-get install postgresql-client)"
  createdb --no-password --maintenance-db="$server/postgres$query" "$dbname" \
    || die "could not create the database '$dbname' (does it exist already? does the user have CREATEDB?)"
  echo "pg_restore.sh: created the database $dbname" >&2
fi

tables="$(psql --no-password --dbname="$target" -tAX -v ON_ERROR_STOP=1 \
  -c "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'")" \
  || die "cannot connect to the target database $dbname"
clean=()
if [[ "$tables" != 0 ]]; then
  [[ "$force" == 1 ]] || die "the target database $dbname already has $tables tables: refusing to restore over them (restore into a new database with --create, or add --force to drop and replace the dump's tables)"
  clean=(--clean --if-exists)
  echo "pg_restore.sh: --force: the dump's tables in $dbname are dropped and replaced" >&2
fi

started=$SECONDS
if ! pg_restore --no-password --no-owner --no-privileges --single-transaction --exit-on-error "${clean[@]}" \
    --dbname="$target" "$dump"; then
  echo "pg_restore.sh: the restore failed (see above); the transaction was rolled back, $dbname is unchanged" >&2
  exit 1
fi
echo "pg_restore.sh: restored $dump into $dbname in $((SECONDS - started)) s" >&2

# Row counts of the main tables, to compare with the source (`SELECT count(*)` there).
for table in auth_user cards_gamesystem cards_datapackage cards_card builder_gamelist builder_listentry \
             builder_listrevision builder_simulationrun builder_simulationchunk; do
  count="$(psql --no-password --dbname="$target" -tAX -c "SELECT count(*) FROM $table" 2>/dev/null || echo "-")"
  printf '%s\t%s\n' "$table" "$count"
done
