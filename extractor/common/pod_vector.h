// common/pod_vector: std::vector for buffers that hot loops fill through a pointer. Its resize()
// leaves new elements of a trivial type unwritten (the allocator default-initialises where
// std::allocator value-initialises), so a loop can grow the buffer to the worst case, write what
// it finds, then cut it to the length written: no capacity check and no store of the end pointer
// per element. Everything else is std::vector's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace lexlink {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using PodVector = std::vector<T, DefaultInitAllocator<T>>;

// Makes room in `v` (a vector or a string) for `more` elements after its last, growing its
// capacity geometrically: resize() to a worst case grows it to that size exactly, so buffers
// grown to a worst case again and again would be reallocated (and copied) nearly every time.
template <class V>
void make_room(V& v, std::size_t more) {
  if (v.capacity() - v.size() < more) v.reserve(std::max(v.size() + more, 2 * v.capacity()));
}

}  // namespace lexlink
