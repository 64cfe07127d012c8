/* One test DLL. Build-time macros shape it:
 *   EXPORT_FN   name of the function it exports (required)
 *   DEP_FN      a function it imports from another DLL (link with that DLL): an import
 *   FAIL_INIT   DllMain returns FALSE on process attach (LoadLibrary fails with 1114)
 */
#include <windows.h>

#ifdef DEP_FN
__declspec(dllimport) int DEP_FN(void);
#endif

__declspec(dllexport) int EXPORT_FN(void)
{
#ifdef DEP_FN
    return DEP_FN() + 1;
#else
    return 1;
#endif
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reserved;
#ifdef FAIL_INIT
    if (reason == DLL_PROCESS_ATTACH) return FALSE;
#endif
    (void)reason;
    return TRUE;
}
