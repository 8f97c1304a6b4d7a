#!/bin/sh
# Install (Debian packages) and start what the web tests need: chromium, chromium-driver and
# a PostgreSQL server on loopback with a test database, and the Debian word lists the language
# lexicons read (qiza.languages). Prints the environment to export:
#   eval "$(.ci/web-services.sh)"
# Tests that need chromium or PostgreSQL skip with a reason when these are absent.
set -eu
log() { echo "web-services: $*" >&2; }
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -x /usr/bin/chromedriver ] || need="$need chromium-driver"
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need="$need postgresql"
for pair in french:wfrench ngerman:wngerman spanish:wspanish catalan:wcatalan italian:witalian \
            dutch:wdutch polish:wpolish; do
    [ -f "/usr/share/dict/${pair%%:*}" ] || need="$need ${pair#*:}"
done
if [ -n "$need" ]; then
    log "installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends $need >&2
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$version main$"; then
    log "creating PostgreSQL $version cluster"
    pg_createcluster "$version" main >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    log "starting PostgreSQL $version on 127.0.0.1:$port"
    pg_ctlcluster "$version" main start -- -o "-c listen_addresses=127.0.0.1" >&2 || pg_ctlcluster "$version" main start >&2
fi
i=0
until runuser -u postgres -- pg_isready -q -h 127.0.0.1 -p "$port"; do
    i=$((i + 1)); [ $i -lt 60 ] || { log "PostgreSQL did not start"; exit 1; }
    sleep 0.5
done
runuser -u postgres -- psql -q -p "$port" -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'qiza') THEN CREATE ROLE qiza LOGIN PASSWORD 'qiza'; END IF; END \$\$;" >&2
runuser -u postgres -- psql -q -p "$port" -tc "SELECT 1 FROM pg_database WHERE datname = 'qiza_test'" | grep -q 1 \
    || runuser -u postgres -- createdb -p "$port" -O qiza qiza_test >&2
log "ready"
echo "export QIZA_TEST_POSTGRES_URL=postgresql://qiza:qiza@127.0.0.1:$port/qiza_test"
echo "export QIZA_CHROMIUM=/usr/bin/chromium"
