/* The aligned allocations of a program linked with musl (aligned_alloc; musl's own memalign and
 * posix_memalign call it): musl's allocator is not built (the engine's heap serves malloc and
 * keeps every block's bounds), so its aligned_alloc is this one, with musl's argument checks
 * and errno, over the engine's __penumbra_aligned_alloc. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void *__penumbra_aligned_alloc(size_t align, size_t len);

void *aligned_alloc(size_t align, size_t len)
{
	if ((align & -align) != align) {
		errno = EINVAL;
		return 0;
	}
	if (len > SIZE_MAX - align) {
		errno = ENOMEM;
		return 0;
	}
	void *p = __penumbra_aligned_alloc(align, len);
	if (!p) errno = ENOMEM;
	return p;
}
