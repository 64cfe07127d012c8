/* libconflict.so.1 in two incompatible builds that share one SONAME.
 * v1 (-DV1) exports f_v1 only; v2 (-DV2) exports f_v1 and f_v2 (a newer, compatible copy).
 * A process that loads v1 first cannot satisfy an extension linked against v2: the loader
 * reuses the already-loaded SONAME ("undefined symbol: f_v2"). v2 first is fine. */
int f_v1(void) { return 1; }
#ifdef V2
int f_v2(void) { return 2; }
#endif
