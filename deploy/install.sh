#!/usr/bin/env bash
# Builds a self-contained svc release from this checkout and installs it into a prefix (default /opt/svc):
#   <prefix>/dist/                compiled service (node <prefix>/dist/main.js -d <root>)
#   <prefix>/node_modules/        production dependencies only (npm ci --omit=dev)
#   <prefix>/native/mmap/         the memory-mapping binding (Node-API: one build serves every Node line)
#   <prefix>/package.json, package-lock.json, README.md, .svc-release
#   <prefix>/conf/                default server.conf and log.conf (reference copies)
#   <prefix>/bin/svc              wrapper: exec node <prefix>/dist/main.js "$@"
#   <prefix>/systemd/             the unit rendered for this install, and the example environment file
#   <prefix>/deploy/              example Prometheus, Alertmanager and HAProxy configurations
# Run as root (and without --no-root) it also creates the system user, the state and log directories,
# seeds <root>/conf with the defaults when absent, installs /etc/systemd/system/svc.service and
# /etc/default/svc (kept if present) and reloads systemd. It never starts or restarts the service.
# The new tree is assembled beside the prefix and swapped in with two renames, so a failed build leaves the
# installed release untouched. After an upgrade, `systemctl restart svc`.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/install.sh [options]
  --prefix DIR               release directory (default /opt/svc)
  --root DIR                 server root the unit runs on (default /var/lib/svc)
  --log-dir DIR              log directory the unit writes to (default /var/log/svc)
  --user NAME                system user and group (default svc)
  --node PATH                node binary for the unit (default: node on PATH)
  --no-root                  only build the tree: no user, no /etc, no systemctl (implied when not root)
  --skip-build               use the checkout's existing dist/ instead of running npm run build
  --node-modules-from DIR    copy the production packages from DIR (offline) instead of npm ci --omit=dev
EOF
}

checkout="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/svc
root_dir=/var/lib/svc
log_dir=/var/log/svc
user=svc
node_bin="$(command -v node || true)"
system_mode=1
build=1
modules_from=""

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --root) root_dir="$2"; shift 2 ;;
    --log-dir) log_dir="$2"; shift 2 ;;
    --user) user="$2"; shift 2 ;;
    --node) node_bin="$2"; shift 2 ;;
    --no-root) system_mode=0; shift ;;
    --skip-build) build=0; shift ;;
    --node-modules-from) modules_from="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

[ "$(id -u)" -eq 0 ] || system_mode=0
[ -n "$node_bin" ] || { echo "install.sh: node not found; pass --node PATH" >&2; exit 1; }
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
prefix="${prefix%/}"
[ -n "$prefix" ] && [ "$prefix" != "/" ] || { echo "install.sh: refusing prefix '/'" >&2; exit 1; }
if [ -e "$prefix" ] && [ ! -f "$prefix/.svc-release" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
  echo "install.sh: $prefix exists and is not an svc release; refusing to replace it" >&2
  exit 1
fi

log() { echo "install.sh: $*"; }

if [ "$build" -eq 1 ]; then
  log "building in $checkout"
  (cd "$checkout" && npm run build --silent)
fi
[ -f "$checkout/dist/main.js" ] || { echo "install.sh: $checkout/dist/main.js missing; build first or drop --skip-build" >&2; exit 1; }

staging="$(dirname "$prefix")/.$(basename "$prefix").new-$$"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging"
cp -a "$checkout/dist" "$staging/dist"
cp "$checkout/package.json" "$checkout/package-lock.json" "$checkout/README.md" "$staging/"
mkdir -p "$staging/conf" "$staging/bin" "$staging/systemd" "$staging/deploy"
cp "$checkout/conf/server.conf" "$checkout/conf/log.conf" "$staging/conf/"
cp "$checkout/deploy/prometheus.yml" "$checkout/deploy/prometheus-rules.yml" "$checkout/deploy/alertmanager.yml" "$checkout/deploy/haproxy.cfg" "$staging/deploy/"
cp "$checkout/systemd/svc.env" "$staging/systemd/svc.env"
# The binding's sources and the install script that builds it (npm ci runs it in the staging tree).
mkdir -p "$staging/native/mmap" "$staging/scripts"
cp "$checkout/native/mmap/binding.gyp" "$checkout/native/mmap/mmap.c" "$staging/native/mmap/"
cp "$checkout/scripts/build-native.mjs" "$staging/scripts/"

if [ -n "$modules_from" ]; then
  log "copying production packages from $modules_from and the checkout's built binding"
  "$node_bin" "$checkout/deploy/copy-production-modules.mjs" "$staging/package-lock.json" "$modules_from" "$staging/node_modules"
  binding="native/mmap/build/Release/svc_mmap.node"
  [ -f "$checkout/$binding" ] || { echo "install.sh: $checkout/$binding missing; run npm run build:native" >&2; exit 1; }
  mkdir -p "$staging/$(dirname "$binding")"
  cp "$checkout/$binding" "$staging/$binding"
else
  log "npm ci --omit=dev (needs the registry and, for the memory-mapping binding, a C compiler)"
  (cd "$staging" && PATH="$(dirname "$node_bin"):$PATH" npm ci --omit=dev --no-audit --no-fund)
fi

cat > "$staging/bin/svc" <<EOF
#!/bin/sh
exec "$node_bin" "$prefix/dist/main.js" "\$@"
EOF
chmod 0755 "$staging/bin/svc"

# The unit is rendered with this install's paths; the checked-in file carries the defaults.
sed -e "s#/usr/bin/node /opt/svc/dist/main.js -d /var/lib/svc#$node_bin $prefix/dist/main.js -d $root_dir#" \
    -e "s#^WorkingDirectory=/var/lib/svc#WorkingDirectory=$root_dir#" \
    -e "s#SVC_LOG_LOG_DIR=/var/log/svc#SVC_LOG_LOG_DIR=$log_dir#" \
    -e "s#file:///opt/svc/README.md#file://$prefix/README.md#" \
    -e "s#^User=svc#User=$user#" -e "s#^Group=svc#Group=$user#" \
    "$checkout/systemd/svc.service" > "$staging/systemd/svc.service"
# StateDirectory=/LogsDirectory= only cover paths under /var/lib and /var/log; elsewhere, name them writable.
if [ "$root_dir" != "/var/lib/svc" ] || [ "$log_dir" != "/var/log/svc" ]; then
  sed -i -e "s#^UMask=0027#UMask=0027\nReadWritePaths=$root_dir $log_dir#" "$staging/systemd/svc.service"
fi

version="$("$node_bin" -e "process.stdout.write(JSON.parse(require('fs').readFileSync(process.argv[1],'utf8')).version)" "$staging/package.json")"
commit="$(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo unknown)"
printf 'version=%s\ncommit=%s\ninstalled=%s\n' "$version" "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$staging/.svc-release"

# Swap the new tree in: the old one stays complete until the second rename.
if [ -e "$prefix" ]; then
  mv "$prefix" "$staging.old"
  mv "$staging" "$prefix"
  rm -rf "$staging.old"
else
  mkdir -p "$(dirname "$prefix")"
  mv "$staging" "$prefix"
fi
trap - EXIT
log "release $version ($commit) installed in $prefix"

if [ "$system_mode" -eq 0 ]; then
  log "no-root mode: no user, directories or unit installed; run: $prefix/bin/svc -d <root>"
  exit 0
fi

if ! id -u "$user" >/dev/null 2>&1; then
  log "creating system user $user"
  useradd --system --user-group --home-dir "$root_dir" --no-create-home --shell /usr/sbin/nologin "$user"
fi
install -d -o "$user" -g "$user" -m 0750 "$root_dir" "$root_dir/conf" "$log_dir"
for conf in server.conf log.conf; do
  [ -e "$root_dir/conf/$conf" ] || install -o "$user" -g "$user" -m 0640 "$prefix/conf/$conf" "$root_dir/conf/$conf"
done
install -m 0644 "$prefix/systemd/svc.service" /etc/systemd/system/svc.service
[ -e /etc/default/svc ] || install -m 0640 -g "$user" "$prefix/systemd/svc.env" /etc/default/svc
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  log "unit installed; start with: systemctl enable --now svc   (upgrade: systemctl restart svc)"
else
  log "unit installed in /etc/systemd/system/svc.service (systemd is not running here)"
fi
