/* warpsafe device headers: <cooperative_groups/memcpy_async.h> (Programming
 * Guide, "Group Collectives: memcpy_async / wait"). */
#ifndef WARPSAFE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define WARPSAFE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#pragma clang system_header
#include <cooperative_groups.h>

namespace cooperative_groups {
#pragma clang attribute push(__attribute__((device)), apply_to = function)
template <class GroupT> void memcpy_async(const GroupT &group, void *dst, const void *src,
                                          size_t count);
template <class GroupT> void wait(const GroupT &group);
template <unsigned int Stage, class GroupT> void wait_prior(const GroupT &group);
#pragma clang attribute pop
} /* namespace cooperative_groups */

#endif /* WARPSAFE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H */
