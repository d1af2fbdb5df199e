#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable, manually managed buffer of trivial values (no references:
/// elements are never deinitialized), reused across
/// frames: it is reallocated only when a larger capacity is asked for, so a
/// stream of same-sized frames allocates nothing after the first one.
@usableFromInline
package struct ScratchBuffer<Element> {
    @usableFromInline var pointer: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        pointer = .allocate(capacity: self.capacity)
    }

    /// Makes room for `count` elements; the contents are not kept.
    @inlinable
    mutating func reserve(_ count: Int) {
        if count <= capacity { return }
        pointer.deallocate()
        capacity = max(count, capacity * 2)
        pointer = .allocate(capacity: capacity)
    }

    func free() { pointer.deallocate() }

    @inlinable @inline(__always)
    package subscript(i: Int) -> Element {
        get { assert(i >= 0 && i < capacity); return pointer[i] }
        nonmutating set { assert(i >= 0 && i < capacity); pointer[i] = newValue }
    }
}

extension ScratchBuffer {
    /// Grows to hold `count` elements, keeping the current contents.
    ///
    /// With `realloc` (the buffers hold trivial values, allocated by
    /// `malloc` underneath): a large block is moved by remapping its pages
    /// rather than copied, so growing the runs of a frame of text at 8K
    /// (some hundred megabytes) takes microseconds, not tens of
    /// milliseconds between two checks of the time limit.
    mutating func reserveKeeping(_ count: Int) {
        if count <= capacity { return }
        precondition(MemoryLayout<Element>.alignment <= 16, "malloc's alignment")
        let newCapacity = max(count, capacity * 2)
        guard let p = realloc(pointer, newCapacity * MemoryLayout<Element>.stride) else {
            fatalError("out of memory for \(newCapacity) scratch elements")
        }
        pointer = p.assumingMemoryBound(to: Element.self)
        capacity = newCapacity
    }
}
