import Foundation

/// Zero-filled memory for big buffers (frames, static layers, photos), mapped straight
/// from the kernel when it is large, so that freeing it hands it straight back.
///
/// Why not malloc: glibc serves a large block with its own mmap at first, but freeing one
/// raises its mmap threshold to that block's size (up to 32 MB), and from then on blocks
/// that size come from the heap arenas. Freed heap memory stays in the process wherever a
/// small long-lived allocation sits above it, so buffers made per start or per photo
/// fragmented the heaps and RSS grew with every restart (about 1.5 MB each; flat with
/// `MALLOC_MMAP_THRESHOLD_` fixed, which is what this does for our own buffers without
/// changing the process's malloc settings).
///
/// Thread safety: the calls are thread-safe; the memory is the caller's.
package enum PageMemory {
    /// Blocks of at least this many bytes are mapped; smaller ones come from malloc. It is
    /// glibc's own initial mmap threshold.
    package static let mappingThreshold = 128 * 1024

    /// `byteCount` zero bytes aligned to `alignment` (at most a page). Free them with
    /// `deallocate(_:byteCount:)` and the same count. Traps when memory is exhausted, as
    /// Swift's own allocation does.
    package static func allocate(byteCount: Int, alignment: Int = 64) -> UnsafeMutableRawPointer {
        precondition(byteCount >= 0 && alignment > 0 && alignment <= 4096, "bad allocation request")
        guard byteCount >= mappingThreshold else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: alignment)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            return memory
        }
        // Anonymous mappings are zero-filled and page-aligned.
        let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != UnsafeMutableRawPointer(bitPattern: -1) else {
            fatalError("out of memory: cannot map \(byteCount) bytes (errno \(errno))")
        }
        return memory
    }

    /// Frees memory from `allocate(byteCount:alignment:)`.
    package static func deallocate(_ memory: UnsafeMutableRawPointer, byteCount: Int) {
        if byteCount >= mappingThreshold {
            munmap(memory, byteCount)
        } else {
            memory.deallocate()
        }
    }

    /// `count` zeroed values of `T` (a trivial type).
    package static func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: count * MemoryLayout<T>.stride, alignment: max(MemoryLayout<T>.alignment, 64))
            .bindMemory(to: T.self, capacity: count)
    }

    /// Frees values from `allocate(_:count:)`, with the same count.
    package static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>, count: Int) {
        deallocate(UnsafeMutableRawPointer(pointer), byteCount: count * MemoryLayout<T>.stride)
    }
}
