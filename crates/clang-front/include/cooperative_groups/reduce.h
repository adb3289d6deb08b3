/* warpsafe device headers: <cooperative_groups/reduce.h> (Programming Guide,
 * "Group Collectives: reduce"): `cg::reduce(tile, value, op)` with the
 * function objects cg::plus, less (minimum), greater (maximum), bit_and,
 * bit_or, bit_xor, whose one-line bodies are the documented operations. */
#ifndef WARPSAFE_COOPERATIVE_GROUPS_REDUCE_H
#define WARPSAFE_COOPERATIVE_GROUPS_REDUCE_H
#pragma clang system_header
#include <cooperative_groups.h>

namespace cooperative_groups {

#pragma clang attribute push(__attribute__((host)), apply_to = function)
#pragma clang attribute push(__attribute__((device)), apply_to = function)
/* body: trivial (each operator()) */
template <class T> struct plus {
  T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(const T &a, const T &b) const { return a ^ b; }
};
#pragma clang attribute pop
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((device)), apply_to = function)
/* The value every thread of `group` contributed, combined with `op`. */
template <class GroupT, class T, class OpT> T reduce(const GroupT &group, T value, OpT op);
#pragma clang attribute pop

} /* namespace cooperative_groups */

#endif /* WARPSAFE_COOPERATIVE_GROUPS_REDUCE_H */
