#!/usr/bin/env bash
# Removes an svc release installed by deploy/install.sh: stops and disables the unit, removes
# /etc/systemd/system/svc.service and the release prefix. Data (the root), logs, /etc/default/svc and the
# system user are kept unless --purge is given. A prefix without the .svc-release marker is never deleted.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/uninstall.sh [options]
  --prefix DIR     release directory (default /opt/svc)
  --root DIR       server root, removed only with --purge (default /var/lib/svc)
  --log-dir DIR    log directory, removed only with --purge (default /var/log/svc)
  --user NAME      system user, removed only with --purge (default svc)
  --purge          also delete the data, the logs, /etc/default/svc and the user
  --no-root        only remove the prefix: no systemctl, no /etc (implied when not root)
EOF
}

prefix=/opt/svc
root_dir=/var/lib/svc
log_dir=/var/log/svc
user=svc
purge=0
system_mode=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --root) root_dir="$2"; shift 2 ;;
    --log-dir) log_dir="$2"; shift 2 ;;
    --user) user="$2"; shift 2 ;;
    --purge) purge=1; shift ;;
    --no-root) system_mode=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || system_mode=0
prefix="${prefix%/}"
log() { echo "uninstall.sh: $*"; }

if [ "$system_mode" -eq 1 ]; then
  if [ -d /run/systemd/system ] && systemctl list-unit-files svc.service >/dev/null 2>&1; then
    # Stopping drains: uploads are rolled back, db/ is flushed, the lock released.
    systemctl disable --now svc.service || true
  fi
  rm -f /etc/systemd/system/svc.service
  [ -d /run/systemd/system ] && systemctl daemon-reload || true
fi

if [ -e "$prefix" ]; then
  if [ ! -f "$prefix/.svc-release" ]; then
    echo "uninstall.sh: $prefix has no .svc-release marker; not deleting it" >&2
    exit 1
  fi
  rm -rf "$prefix"
  log "removed $prefix"
fi

if [ "$purge" -eq 1 ]; then
  if [ -f "$root_dir/svc.lock" ]; then
    pid="$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$root_dir/svc.lock")"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      echo "uninstall.sh: svc (pid $pid) still runs on $root_dir; stop it before --purge" >&2
      exit 1
    fi
  fi
  rm -rf "$root_dir" "$log_dir"
  log "purged $root_dir and $log_dir"
  if [ "$system_mode" -eq 1 ]; then
    rm -f /etc/default/svc
    if id -u "$user" >/dev/null 2>&1; then userdel "$user" || true; fi
  fi
else
  log "kept data in $root_dir and logs in $log_dir (--purge removes them)"
fi
