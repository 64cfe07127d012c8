#!/usr/bin/env bash
# Build a real 32-bit CPython 3.11 on an x86_64 Debian 12 host, without installing anything:
# download Debian's i386 packages (interpreter, stdlib, and the i386 libc whose loader runs it),
# unpack them into DEST/sysroot and write DEST/python3.11-i386, a wrapper that execs the
# interpreter through that loader. The amd64 system stays untouched; it only needs the i386
# package index, which tests/system-deps.sh provides (dpkg --add-architecture i386).
# Usage: fetch_python.sh DEST
set -euo pipefail
dest=${1:?usage: fetch_python.sh DEST}
# The least that runs dldoctor's collector: the interpreter and its stdlib, the loader and libc,
# plus zlib and expat which python3.11-minimal links against. libssl3 (_hashlib) is left out:
# hashlib falls back to its builtin sha256/md5. libffi8 (ctypes) is left out: the collector
# does not import ctypes.
pkgs=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 zlib1g libexpat1)

if ! apt-cache show python3.11-minimal:i386 >/dev/null 2>&1; then
  echo "no i386 package index: run tests/system-deps.sh as root (dpkg --add-architecture i386)" >&2
  exit 1
fi
rm -rf "$dest"
mkdir -p "$dest/debs" "$dest/sysroot"
dest=$(cd "$dest" && pwd)
(cd "$dest/debs" && apt-get download -qq "${pkgs[@]/%/:i386}" 2>&1 | grep -v "unsandboxed" >&2 || true)
n=$(find "$dest/debs" -name '*_i386.deb' | wc -l)
if [ "$n" -ne "${#pkgs[@]}" ]; then
  echo "apt-get download fetched $n of ${#pkgs[@]} packages: ${pkgs[*]}" >&2
  exit 1
fi
for deb in "$dest"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dest/sysroot"
done
cat > "$dest/python3.11-i386" <<'WRAP'
#!/bin/sh
# Run the unpacked i386 CPython through its own loader; args and stdin pass straight through.
here=$(cd "$(dirname "$0")" && pwd)
root="$here/sysroot"
PYTHONHOME="$root/usr" exec "$root/lib/ld-linux.so.2" --inhibit-cache \
  --library-path "$root/lib/i386-linux-gnu:$root/usr/lib/i386-linux-gnu" \
  "$root/usr/bin/python3.11" "$@"
WRAP
chmod +x "$dest/python3.11-i386"
rm -rf "$dest/debs"
"$dest/python3.11-i386" -c 'import struct, sys; assert struct.calcsize("P") == 4, "not 32-bit"; print(sys.version)'
