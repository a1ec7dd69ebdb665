/* Stand-in for Windows' bcryptprimitives.dll, which Wine 8.0 lacks: pydantic-core (Rust's std)
 * imports ProcessPrng from it. Built by build-windows-wine.sh into the Wine prefix only, never
 * into the bundle (real Windows 10 has the DLL). ProcessPrng fills the buffer from RtlGenRandom
 * (advapi32's SystemFunction036), the system CSPRNG. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
