#!/usr/bin/env bash
# Debian packages the tests use as real fixtures and oracles: compilers for real ELF and
# Windows binaries, patchelf for RPATH cases, ldd/libtree/lddtree for Linux resolution,
# Wine's loader for Windows resolution; python3-venv, without which Debian's python3 cannot make
# the .venv the README's next step makes. Installs only what is missing (needs root).
set -euo pipefail
pkgs=(gcc g++ libc6-dev python3-dev python3-venv patchelf binutils gcc-mingw-w64-x86-64
      gcc-mingw-w64-i686 binutils-mingw-w64-x86-64 wine64 wine libtree pax-utils)
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
# i386 package index only (nothing i386 is installed): tests/data/i386/fetch_python.sh downloads
# and unpacks Debian's i386 CPython into .cache/ to test against a real 32-bit interpreter.
if ! dpkg --print-foreign-architectures | grep -qx i386; then
  dpkg --add-architecture i386
fi
if ! apt-cache show python3.11-minimal:i386 >/dev/null 2>&1; then
  apt-get update -qq || true  # one stale mirror must not stop the rest; the check below decides
  apt-cache show python3.11-minimal:i386 >/dev/null
fi
