#ifndef CHEAPINFO_H
#define CHEAPINFO_H
#include <stddef.h>

/// Bytes of heap in use according to the C library's allocator (glibc: mallinfo2().uordblks,
/// which counts whole chunks, malloc's per-chunk overhead included); 0 where unsupported.
size_t cheapinfo_heap_in_use(void);

/// The usable size of the allocation at `pointer` (glibc: malloc_usable_size); 0 where unsupported.
size_t cheapinfo_usable_size(void *pointer);

#endif
