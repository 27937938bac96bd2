#!/usr/bin/env bash
# Upgrade Hangar on this machine, one phase at a time (docs/deployment.md, "Upgrades").
#
#   deploy/upgrade.sh PHASE [PHASE ...]
#
# Put the new release's code in HANGAR_HOME first (git fetch && git checkout TAG, or unpack it), on every machine.
# Then run the phases in this order ACROSS THE CLUSTER (each phase on the machines named; wait for a phase to be
# done everywhere before the next):
#
#   stop-workers   every worker machine: warm shutdown of hangar-worker@* and hangar-beat (each chunk in progress
#                  is finished and stored; nothing new is taken; up to 2 minutes)
#   install        every machine: the pinned requirements into HANGAR_HOME/.venv (created if missing), then the
#                  game engines compiled with mypyc (rules_engine/compiled.py; needs gcc and the Python headers)
#   release        ONE machine: check --deploy, a backup (deploy/backup/pg_backup.sh), migrate, load_packages;
#                  names the runs still queued or running from another engine version (ENGINE_VERSION changed:
#                  the new workers fail them with a clear reason, their users start them again)
#   web            every web machine: collectstatic, compilemessages (when a .po is newer than its .mo),
#                  then reload hangar-web (SIGHUP: new workers with the new code, requests in flight finish)
#   start-workers  every worker machine: start hangar-worker@1..HANGAR_WORKER_INSTANCES (default: one per core),
#                  and hangar-beat if it is enabled on this machine
#   verify         any web machine: GET HANGAR_HEALTH_URL until the database and the broker are "ok" and at least
#                  one worker answers (60 s at most)
#   all            one machine that runs everything: every phase above, in order
#
# Environment: HANGAR_ENV_FILE (default /etc/hangar/hangar.env) is read first; HANGAR_HOME (default: the folder
# above deploy/), HANGAR_WORKER_INSTANCES, HANGAR_HEALTH_URL (default http://127.0.0.1:8000/api/health/).
# Phases that start or stop services need root (systemctl). Exit status: 0 done, 1 a step failed, 2 bad usage.
set -euo pipefail

die() { echo "upgrade.sh: $*" >&2; exit 2; }
fail() { echo "upgrade.sh: $*" >&2; exit 1; }
say() { echo "[upgrade] $*"; }

env_file="${HANGAR_ENV_FILE:-/etc/hangar/hangar.env}"
if [[ -r "$env_file" ]]; then
  set -a
  # shellcheck disable=SC1090
  . "$env_file"
  set +a
fi
home="${HANGAR_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
python="$home/.venv/bin/python"
instances="${HANGAR_WORKER_INSTANCES:-$(nproc)}"
health_url="${HANGAR_HEALTH_URL:-http://127.0.0.1:8000/api/health/}"

[[ -f "$home/manage.py" ]] || die "HANGAR_HOME=$home has no manage.py: put the new release's code there first"
[[ "$instances" =~ ^[1-9][0-9]*$ ]] || die "HANGAR_WORKER_INSTANCES must be 1 or more, got '$instances'"

need_root() {
  [[ "$(id -u)" == 0 ]] || fail "the '$1' phase starts or stops services: run it as root (sudo)"
  command -v systemctl >/dev/null || fail "the '$1' phase needs systemd (systemctl); with a Procfile runner, stop/start its processes instead"
}

manage() { (cd "$home" && "$python" manage.py "$@"); }

phase_stop_workers() {
  need_root stop-workers
  say "stopping the Celery workers and beat on $(hostname) (warm shutdown: chunks in progress finish; up to 2 minutes)"
  systemctl stop 'hangar-worker@*.service' hangar-beat.service
  say "workers stopped"
}

phase_install() {
  if [[ ! -x "$python" ]]; then
    say "creating the virtualenv $home/.venv"
    python3 -m venv "$home/.venv"
  fi
  say "installing the pinned requirements into $home/.venv"
  "$python" -m pip install --quiet --disable-pip-version-check -r "$home/requirements.txt"
  say "compiling the game engines with mypyc (plain Python is used if this fails: same games, slower)"
  (cd "$home" && "$python" -m rules_engine.compiled build) || say "engine build failed: running the engines as plain Python"
}

phase_release() {
  [[ -x "$python" ]] || fail "no virtualenv at $home/.venv: run the 'install' phase first"
  say "checking the production settings (manage.py check --deploy)"
  manage check --deploy
  case "${DATABASE_URL:-}" in
    postgres://*|postgresql://*)
      say "backing up the database before migrating (deploy/backup/pg_backup.sh)"
      "$home/deploy/backup/pg_backup.sh" >/dev/null || fail "the backup before the migration failed: not migrating"
      ;;
    *) say "WARNING: DATABASE_URL is not PostgreSQL: no backup is taken before migrating" ;;
  esac
  say "migrating the database"
  manage migrate --noinput
  say "loading the bundled data packages (unchanged packages are skipped)"
  manage load_packages
  # Runs started under another engine version cannot be finished by the new workers: a chunk of another engine
  # version would mix two engines' games in one result. The workers fail such runs with that reason (the user
  # starts them again); stored results of older versions stay readable but are no longer reused.
  manage shell --no-imports -c '
from rules_engine.simulation import ENGINE_VERSION
from builder.models import SimulationRun
stale = SimulationRun.objects.filter(status__in=["queued", "running"]).exclude(engine_version=ENGINE_VERSION)
print(f"[upgrade] engine version {ENGINE_VERSION}; runs queued or running from another version: {stale.count()}")
for run in stale[:20]:
    print(f"[upgrade]   {run.public_id} ({run.engine_version}, {run.status}): will fail with the reason, to be started again")
'
}

phase_web() {
  [[ -x "$python" ]] || fail "no virtualenv at $home/.venv: run the 'install' phase first"
  say "collecting the static files into $home/staticfiles"
  manage collectstatic --noinput -v0
  local stale_po=0 po
  while IFS= read -r -d '' po; do
    [[ "$po" -nt "${po%.po}.mo" ]] && stale_po=1
  done < <(find "$home/locale" -name '*.po' -print0 2>/dev/null)
  if [[ "$stale_po" == 1 ]]; then
    if command -v msgfmt >/dev/null; then
      say "compiling the translations (a .po is newer than its .mo)"
      manage compilemessages -v0
    else
      say "WARNING: a .po is newer than its .mo but msgfmt is missing (apt-get install gettext): the shipped .mo files are used"
    fi
  fi
  need_root web
  if systemctl is-active --quiet hangar-web.service; then
    say "reloading hangar-web (graceful: new workers, requests in flight finish)"
    systemctl reload hangar-web.service
  else
    say "starting hangar-web"
    systemctl start hangar-web.service
  fi
}

phase_start_workers() {
  need_root start-workers
  local units=()
  for ((n = 1; n <= instances; n++)); do units+=("hangar-worker@$n.service"); done
  say "starting ${#units[@]} Celery worker instance(s) on $(hostname)"
  systemctl start "${units[@]}"
  if systemctl is-enabled --quiet hangar-beat.service 2>/dev/null; then
    say "starting hangar-beat (enabled on this machine: the one beat of the cluster)"
    systemctl start hangar-beat.service
  fi
}

phase_verify() {
  [[ -x "$python" ]] || fail "no virtualenv at $home/.venv"
  say "checking $health_url"
  # X-Forwarded-Proto: https, as nginx sends it (else the HTTPS redirect answers); Host: the first ALLOWED_HOSTS.
  HEALTH_URL="$health_url" "$python" - <<'PY' || fail "the health check failed (above): see docs/deployment.md, 'Health checks'"
import json, os, sys, time, urllib.error, urllib.request

url = os.environ["HEALTH_URL"]
host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip().lstrip(".") or "localhost"
deadline, last = time.monotonic() + 60, "no answer"
while time.monotonic() < deadline:
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https", "Host": host, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            body = json.load(response)
    except urllib.error.HTTPError as exc:
        body = json.loads(exc.read() or b"{}") if exc.code == 503 else {"http": exc.code}
    except (OSError, ValueError) as exc:
        body = {"error": str(exc)}
    last = json.dumps(body)
    workers = body.get("workers")
    if body.get("database") == "ok" and body.get("broker") == "ok" and (workers == "unknown" or workers):
        print(f"[upgrade] healthy: {last}")
        sys.exit(0)
    time.sleep(2)
print(f"[upgrade] not healthy after 60 s: {last}", file=sys.stderr)
sys.exit(1)
PY
}

[[ $# -ge 1 ]] || die "name a phase: stop-workers, install, release, web, start-workers, verify or all (see the top of this file)"
for phase in "$@"; do
  case "$phase" in
    stop-workers) phase_stop_workers ;;
    install) phase_install ;;
    release) phase_release ;;
    web) phase_web ;;
    start-workers) phase_start_workers ;;
    verify) phase_verify ;;
    all) phase_stop_workers; phase_install; phase_release; phase_web; phase_start_workers; phase_verify ;;
    *) die "unknown phase '$phase': stop-workers, install, release, web, start-workers, verify or all" ;;
  esac
done
say "done: $*"
