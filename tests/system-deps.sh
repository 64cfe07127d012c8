#!/usr/bin/env bash
# Debian packages the tests use as real fixtures and oracles: compilers for real ELF and
# Windows binaries, patchelf for RPATH cases, ldd/libtree/lddtree for Linux resolution,
# Wine's loader for Windows resolution. Installs only what is missing (needs root).
set -euo pipefail
pkgs=(gcc libc6-dev python3-dev patchelf binutils gcc-mingw-w64-x86-64 gcc-mingw-w64-i686
      binutils-mingw-w64-x86-64 wine64 wine libtree pax-utils)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
