/* asan: PROPHECY_ASAN is defined (to 1) when this translation unit is built
 * with AddressSanitizer (gcc's __SANITIZE_ADDRESS__, clang's
 * __has_feature(address_sanitizer)), for the few places that must behave
 * differently under it (resource limits it cannot live within, inputs its
 * allocator makes slow). */
#ifndef PROPHECY_ASAN_H
#define PROPHECY_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define PROPHECY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROPHECY_ASAN 1
#endif
#endif

#endif
