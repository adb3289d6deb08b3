/* warpsafe device headers: <cooperative_groups/scan.h> (Programming Guide,
 * "Group Collectives: inclusive_scan / exclusive_scan"); without an operator
 * the scan is a sum. */
#ifndef WARPSAFE_COOPERATIVE_GROUPS_SCAN_H
#define WARPSAFE_COOPERATIVE_GROUPS_SCAN_H
#pragma clang system_header
#include <cooperative_groups/reduce.h>

namespace cooperative_groups {
#pragma clang attribute push(__attribute__((device)), apply_to = function)
template <class GroupT, class T> T inclusive_scan(const GroupT &group, T value);
template <class GroupT, class T, class OpT> T inclusive_scan(const GroupT &group, T value, OpT op);
template <class GroupT, class T> T exclusive_scan(const GroupT &group, T value);
template <class GroupT, class T, class OpT> T exclusive_scan(const GroupT &group, T value, OpT op);
#pragma clang attribute pop
} /* namespace cooperative_groups */

#endif /* WARPSAFE_COOPERATIVE_GROUPS_SCAN_H */
