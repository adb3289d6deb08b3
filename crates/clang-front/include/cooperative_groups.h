/* warpsafe device headers: <cooperative_groups.h> (Programming Guide,
 * "Cooperative Groups"): thread_block, grid_group, thread_block_tile<N>,
 * coalesced_group and the functions that make and synchronize them. Code
 * usually aliases the namespace: `namespace cg = cooperative_groups;`. Member
 * functions are declarations; a tile's size is a constant (trivial body). */
#ifndef WARPSAFE_COOPERATIVE_GROUPS_H
#define WARPSAFE_COOPERATIVE_GROUPS_H
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>

namespace cooperative_groups {

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* Any group; the others convert to it. */
class thread_group {
public:
  void sync() const;
  unsigned long long size() const;
  unsigned long long num_threads() const;
  unsigned long long thread_rank() const;
  bool is_valid() const;
};

/* The threads of the calling block. */
class thread_block : public thread_group {
public:
  void sync() const;
  unsigned int size() const;
  unsigned int num_threads() const;
  unsigned int thread_rank() const;
  dim3 group_index() const;
  dim3 thread_index() const;
  dim3 group_dim() const;
  dim3 dim_threads() const;
};

/* Every thread of the launch (needs a cooperative launch to sync). */
class grid_group : public thread_group {
public:
  void sync() const;
  bool is_valid() const;
  unsigned long long size() const;
  unsigned long long num_threads() const;
  unsigned long long thread_rank() const;
  unsigned long long block_rank() const;
  unsigned long long num_blocks() const;
  dim3 group_dim() const;
  dim3 dim_blocks() const;
  dim3 block_index() const;
};

/* The active threads of a warp at the point of the call. */
class coalesced_group : public thread_group {
public:
  void sync() const;
  unsigned int size() const;
  unsigned int num_threads() const;
  unsigned int thread_rank() const;
  unsigned int meta_group_rank() const;
  unsigned int meta_group_size() const;
  template <class T> T shfl(T var, unsigned int srcRank) const;
  template <class T> T shfl_down(T var, unsigned int delta) const;
  template <class T> T shfl_up(T var, unsigned int delta) const;
  unsigned int ballot(int predicate) const;
  int any(int predicate) const;
  int all(int predicate) const;
  template <class T> unsigned int match_any(T value) const;
  template <class T> unsigned int match_all(T value, int &pred) const;
};

/* A statically sized partition of a parent group (Size a power of two up to
 * 32); `ParentT = void` is the parent-erased type every tile converts to. */
template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
public:
  template <class OtherParentT>
  thread_block_tile(const thread_block_tile<Size, OtherParentT> &other);
  void sync() const;
  unsigned int thread_rank() const;
  static constexpr unsigned int size() { return Size; }        /* body: trivial */
  static constexpr unsigned int num_threads() { return Size; } /* body: trivial */
  unsigned int meta_group_rank() const;
  unsigned int meta_group_size() const;
  template <class T> T shfl(T var, int srcRank) const;
  template <class T> T shfl_down(T var, unsigned int delta) const;
  template <class T> T shfl_up(T var, unsigned int delta) const;
  template <class T> T shfl_xor(T var, unsigned int laneMask) const;
  unsigned int ballot(int predicate) const;
  int any(int predicate) const;
  int all(int predicate) const;
  template <class T> unsigned int match_any(T value) const;
  template <class T> unsigned int match_all(T value, int &pred) const;
};

thread_block this_thread_block();
grid_group this_grid();
coalesced_group coalesced_threads();
thread_block_tile<1> this_thread();

template <unsigned int Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
thread_group tiled_partition(const thread_block &parent, unsigned int tilesz);
coalesced_group tiled_partition(const coalesced_group &parent, unsigned int tilesz);
template <class ParentT> coalesced_group binary_partition(const ParentT &parent, bool pred);
template <class ParentT>
coalesced_group labeled_partition(const ParentT &parent, unsigned int label);

template <class GroupT> void sync(const GroupT &group);
/* The spelling of cg::sync in GPUVerify's test suite. */
template <class GroupT> void synchronize(const GroupT &group);
template <class GroupT> unsigned long long thread_rank(const GroupT &group);
template <class GroupT> unsigned long long group_size(const GroupT &group);

#pragma clang attribute pop

} /* namespace cooperative_groups */

#endif /* WARPSAFE_COOPERATIVE_GROUPS_H */
