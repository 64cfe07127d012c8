/* A stand-in for an OLD libstdc++ (SONAME libstdc++.so.6, file libstdc++.so.6.0.19) that
 * defines only the version node GLIBCXX_3.4 (see oldcxx.map), as a conda env or a vendored
 * copy from an old toolchain would lack GLIBCXX_3.4.21+. Loaded first, it makes a modern
 * C++ extension fail with "version `GLIBCXX_3.4.21' not found". */
int old_libstdcxx_marker(void) { return 19; }
int old_libstdcxx_abi_marker(void) { return 1; }
