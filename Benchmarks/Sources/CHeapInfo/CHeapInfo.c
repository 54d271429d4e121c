#include "CHeapInfo.h"
#if __has_include(<malloc.h>)
#include <malloc.h>  // defines __GLIBC__ (through <features.h>) on glibc systems
#endif

size_t cheapinfo_heap_in_use(void) {
#if defined(__GLIBC__)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}

size_t cheapinfo_usable_size(void *pointer) {
#if defined(__GLIBC__)
    return malloc_usable_size(pointer);
#else
    (void)pointer;
    return 0;
#endif
}
