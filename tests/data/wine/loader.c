/* A tiny LoadLibrary driver for the Windows loader model's tests (run under wine).
 *
 * Each argument is one operation, run in order in one process, so that many scenarios
 * share one (slow) wine start:
 *   dir=FOLDER        AddDllDirectory(FOLDER)
 *   path=VALUE        SetEnvironmentVariableW(PATH) (the loader reads PATH at every load)
 *   load=HEX,FILE     LoadLibraryExW(FILE, NULL, HEX); HEX 0 calls LoadLibraryW(FILE)
 *   mod=NAME          GetModuleHandleW(NAME) + GetModuleFileNameW: which file NAME bound to
 *   env               print PATH
 * Output: one line per operation, "load FILE -> ok" / "load FILE -> error N",
 * "mod NAME -> FILE" / "mod NAME -> none", "path -> VALUE".
 */
#include <windows.h>
#include <stdio.h>
#include <wchar.h>

static wchar_t buf[32768];

int wmain(int argc, wchar_t **argv)
{
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    for (int i = 1; i < argc; i++) {
        wchar_t *op = argv[i];
        if (wcsncmp(op, L"dir=", 4) == 0) {
            DLL_DIRECTORY_COOKIE c = AddDllDirectory(op + 4);
            wprintf(L"dir %ls -> %ls\n", op + 4, c ? L"ok" : L"error");
        } else if (wcsncmp(op, L"path=", 5) == 0) {
            SetEnvironmentVariableW(L"PATH", op + 5);
            wprintf(L"setpath -> ok\n");
        } else if (wcsncmp(op, L"load=", 5) == 0) {
            wchar_t *comma = wcschr(op + 5, L',');
            if (!comma) { wprintf(L"bad %ls\n", op); continue; }
            *comma = 0;
            DWORD flags = wcstoul(op + 5, NULL, 16);
            HMODULE h = flags ? LoadLibraryExW(comma + 1, NULL, flags) : LoadLibraryW(comma + 1);
            if (h) wprintf(L"load %ls -> ok\n", comma + 1);
            else wprintf(L"load %ls -> error %lu\n", comma + 1, GetLastError());
        } else if (wcsncmp(op, L"mod=", 4) == 0) {
            HMODULE h = GetModuleHandleW(op + 4);
            if (h && GetModuleFileNameW(h, buf, 32768)) wprintf(L"mod %ls -> %ls\n", op + 4, buf);
            else wprintf(L"mod %ls -> none\n", op + 4);
        } else if (wcscmp(op, L"env") == 0) {
            GetEnvironmentVariableW(L"PATH", buf, 32768);
            wprintf(L"path -> %ls\n", buf);
        } else {
            wprintf(L"bad %ls\n", op);
        }
        fflush(stdout);
    }
    return 0;
}
