#!/usr/bin/env bash
# Builds local TEST STAND-INS for the two public base images that docker-compose.yml and Dockerfile name,
# `node:20-bookworm-slim` and `redis:7`, on machines that reach no image registry (CI here). The compose
# file and Dockerfile stay what a user elsewhere runs; only the images under those names differ:
#   - a base: Debian bookworm from `debootstrap --variant=minbase`, imported with `docker import`
#     (one root file system, shared by both stand-ins);
#   - node:20-bookworm-slim: the base plus this host's `node` binary and npm, the host's CA bundle with
#     npm set to use it (so `npm ci` works inside a build), and a `node` user (uid 1000);
#   - redis:7: the base plus Debian's redis-server and redis-tools, protected mode off as the official
#     image is built, working directory /data.
# Every stand-in carries the label org.opencontainers.image.description="test stand-in for ...". An image
# is built only when missing, or when it is a stand-in built from other inputs (this folder's files, the
# host's node and npm versions, its CA bundle); an image of that name without the label (the real one,
# pulled from a registry) is used as it is and never replaced.
# Needs root (debootstrap) and a running Docker engine. Settings: DOCKER (client command), DEBIAN_MIRROR.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
docker=${DOCKER:-docker}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=api-directory-test-stand-in/debian:bookworm-minbase
description_key=org.opencontainers.image.description
inputs_key=api-directory.test-stand-in.inputs

log() { printf '[stand-ins] %s\n' "$*"; }
scratch=()
trap '(( ${#scratch[@]} == 0 )) || rm -rf "${scratch[@]}"' EXIT
# Sets `made` to a new scratch folder, removed on exit.
new_scratch() { made=$(mktemp -d "${TMPDIR:-/var/tmp}/$1.XXXXXX"); scratch+=("$made"); }
seconds_since() { echo $(( $(date +%s) - $1 )); }

# Prints: missing | foreign | stand-in:<inputs digest>
image_state() {
  local labels
  if ! labels=$("$docker" image inspect --format "{{index .Config.Labels \"$description_key\"}}|{{index .Config.Labels \"$inputs_key\"}}" "$1" 2>/dev/null); then
    echo missing
  elif [[ $labels == "test stand-in for "* ]]; then
    echo "stand-in:${labels#*|}"
  else
    echo foreign
  fi
}

# true when `image` must be built for inputs `digest`
needs_build() {
  local image=$1 digest=$2 state
  state=$(image_state "$image")
  case $state in
    missing) log "$image: missing, building the test stand-in"; return 0 ;;
    foreign) log "$image: present and not a stand-in (the real image?): using it as it is"; return 1 ;;
    "stand-in:$digest") log "$image: test stand-in present, inputs unchanged"; return 1 ;;
    *) log "$image: test stand-in built from other inputs, rebuilding"; return 0 ;;
  esac
}

# After a rebuild, removes the stand-in it replaced (now untagged), if nothing uses it.
drop_replaced() {
  if [[ -n $replaced && $replaced != $("$docker" image inspect --format '{{.Id}}' "$1") ]]; then
    "$docker" rmi "$replaced" >/dev/null 2>&1 || true
  fi
}

ensure_base() {
  [[ $(image_state "$base") == missing ]] || return 0
  [[ $(id -u) == 0 ]] || { echo "debootstrap needs root to build the stand-ins' root file system" >&2; exit 1; }
  command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
  local started dir
  started=$(date +%s)
  new_scratch stand-in-rootfs
  dir=$made
  log "$base: debootstrap --variant=minbase bookworm from $mirror (1-2 minutes)"
  if ! debootstrap --variant=minbase bookworm "$dir/rootfs" "$mirror" >"$dir/debootstrap.log" 2>&1; then
    tail -n 30 "$dir/debootstrap.log" >&2
    exit 1
  fi
  tar -C "$dir/rootfs" --numeric-owner -c . | "$docker" import \
    --change "LABEL $description_key=\"test stand-in for a Debian bookworm base (debootstrap minbase); the root file system of the other stand-ins\"" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' \
    - "$base" >/dev/null
  log "$base: imported in $(seconds_since "$started") s"
}

build_node() {
  local image=node:20-bookworm-slim node npm_dir digest started ctx
  node=$(command -v node)
  npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
  digest=$( { cat "$here/node.Dockerfile"; "$node" --version; npm --version; sha256sum < /etc/ssl/certs/ca-certificates.crt; } | sha256sum | cut -c1-16)
  needs_build "$image" "$digest" || return 0
  ensure_base
  started=$(date +%s)
  replaced=$("$docker" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
  new_scratch stand-in-node
  ctx=$made
  cp "$node" "$ctx/node"
  cp -a "$npm_dir" "$ctx/npm"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
  cp "$here/node.Dockerfile" "$ctx/Dockerfile"
  "$docker" build --quiet --tag "$image" \
    --build-arg "BASE=$base" --build-arg "INPUTS_DIGEST=$digest" \
    --build-arg "DESCRIPTION=test stand-in for node:20-bookworm-slim: Debian bookworm minbase with the host's node $("$node" --version) and npm $(npm --version) (test/compose/stand-ins)" \
    "$ctx" >/dev/null
  log "$image: built in $(seconds_since "$started") s"
  drop_replaced "$image"
}

build_redis() {
  local image=redis:7 digest started
  digest=$(cat "$here/redis.Dockerfile" "$here/redis-server" | sha256sum | cut -c1-16)
  needs_build "$image" "$digest" || return 0
  ensure_base
  started=$(date +%s)
  replaced=$("$docker" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
  "$docker" build --quiet --tag "$image" --file "$here/redis.Dockerfile" \
    --build-arg "BASE=$base" --build-arg "INPUTS_DIGEST=$digest" \
    --build-arg "DESCRIPTION=test stand-in for redis:7: Debian bookworm minbase with Debian's redis-server, protected mode off (test/compose/stand-ins)" \
    "$here" >/dev/null
  log "$image: built in $(seconds_since "$started") s"
  drop_replaced "$image"
}

"$docker" info >/dev/null 2>&1 || { echo "no Docker engine answers (start dockerd first: test/compose/docker-engine.sh)" >&2; exit 1; }
build_node
build_redis
