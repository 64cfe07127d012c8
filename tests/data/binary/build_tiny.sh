#!/bin/sh
# Build the small real binaries the binary-reader tests check field by field.
# Usage: build_tiny.sh OUTDIR   (needs gcc, x86_64-w64-mingw32-gcc, -windres, -dlltool)
set -eu
out="$1"
src="$out/src"
mkdir -p "$src"
cd "$src"

cat > dep.c <<'C'
int dep(void) { return 1; }
int dep2(void) { return 2; }
C
cat > dep.map <<'C'
DEP_1.0 { global: dep; local: *; };
DEP_2.0 { global: dep2; } DEP_1.0;
C
cat > tiny.c <<'C'
extern int dep(void);
extern int dep2(void);
int tiny(void) { return dep() + dep2(); }
C
cat > main.c <<'C'
extern int tiny(void);
int main(void) { return tiny(); }
C

# ELF: a versioned library, a library with DT_RPATH, one with DT_RUNPATH, a PIE, an object.
gcc -shared -fPIC -o "$out/libdep.so.1" dep.c -Wl,-soname,libdep.so.1 -Wl,--version-script,dep.map
ln -sf "$out/libdep.so.1" libdep.so
gcc -shared -fPIC -o "$out/libtiny_rpath.so" tiny.c -L. -ldep -Wl,-soname,libtiny.so.3 \
    -Wl,--disable-new-dtags '-Wl,-rpath,$ORIGIN/a:/opt/b' -Wl,-rpath,/opt/c
gcc -shared -fPIC -o "$out/libtiny_runpath.so" tiny.c -L. -ldep -Wl,-soname,libtiny.so.3 \
    -Wl,--enable-new-dtags '-Wl,-rpath,$ORIGIN/lib'
cp "$out/libtiny_runpath.so" libtiny.so
gcc -pie -fPIE -o "$out/tiny_exe" main.c -L. -ltiny -ldep -Wl,--allow-shlib-undefined
gcc -c -o "$out/tiny.o" dep.c

# PE: a DLL with exports and a version resource, one that imports it, and an
# EXE. (Delay-load imports come from the real wheels: GNU ld 2.40 leaves the
# delay-import data directory of a dlltool delaylib empty.)
W=x86_64-w64-mingw32
cat > dep.def <<'C'
LIBRARY depname.dll
EXPORTS
dep
dep2
C
cat > version.rc <<'C'
1 VERSIONINFO
FILEVERSION 1,2,3,4
PRODUCTVERSION 5,6,7,8
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904b0"
    BEGIN
      VALUE "FileVersion", "1.2.3.4"
    END
  END
END
C
cat > delayed.c <<'C'
__declspec(dllexport) int delayed(void) { return 3; }
C
cat > tinyw.c <<'C'
extern int dep(void);
extern int delayed(void);
__declspec(dllexport) int tiny(void) { return dep() + delayed(); }
C
$W-windres version.rc -O coff -o version.o
$W-gcc -shared -s -o "$out/dep.dll" dep.c dep.def version.o -Wl,--out-implib,libdep.dll.a
$W-gcc -shared -s -o "$out/delayed.dll" delayed.c
$W-gcc -shared -s -o "$out/tiny.dll" tinyw.c -L. -ldep.dll "$out/delayed.dll"
$W-gcc -s -o "$out/tiny.exe" main.c "$out/tiny.dll"
