#!/usr/bin/env bash
# Makes ready what the compose stack test needs on a Debian machine such as CI's (run as root): installs
# Debian's docker.io (engine 20.10), docker-compose (1.29) and debootstrap when missing, starts `dockerd`
# in the background when no engine answers (log: DOCKERD_LOG, default /var/log/dockerd.log), and waits
# for it. The engine picks its storage driver (overlay2 here, vfs where overlayfs is not available);
# DOCKERD_STORAGE_DRIVER forces one. A machine with an engine of its own already answering is left alone.
set -euo pipefail

log=${DOCKERD_LOG:-/var/log/dockerd.log}
say() { printf '[docker-engine] %s\n' "$*"; }

engine_answers() { command -v docker >/dev/null && docker info >/dev/null 2>&1; }

missing=()
engine_answers || command -v dockerd >/dev/null || missing+=(docker.io)
# docker.io brings a docker client too; a client alone (without dockerd) does not do.
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! engine_answers; then
  args=()
  [ -n "${DOCKERD_STORAGE_DRIVER:-}" ] && args+=(--storage-driver "$DOCKERD_STORAGE_DRIVER")
  say "starting dockerd (log: $log)"
  setsid nohup dockerd "${args[@]}" >>"$log" 2>&1 </dev/null &
  for _ in $(seq 1 60); do
    engine_answers && break
    sleep 1
  done
  engine_answers || { tail -n 30 "$log" >&2; say "dockerd did not answer within 60 s"; exit 1; }
fi
say "$(docker info --format 'engine {{.ServerVersion}}, storage driver {{.Driver}}, cgroups v{{.CgroupVersion}}'); $(docker-compose version --short 2>/dev/null | sed 's/^/docker-compose /')"
