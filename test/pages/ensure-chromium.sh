#!/usr/bin/env bash
# The pages' browser tests (test/pages/browser.e2e-spec.ts) drive Debian's chromium; Chinese text needs
# CJK fonts, or it is drawn as boxes. `npm test` runs this first: it installs both when missing (as root,
# with apt-get), and otherwise says what to install; the browser test then fails naming it.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} for the browser tests" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "the browser tests need: apt-get install ${missing[*]}" >&2
fi
