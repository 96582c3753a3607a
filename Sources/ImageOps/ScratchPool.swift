import CaptureCore
import Synchronization

/// Intermediate buffers for transforms that cannot go from source to destination in one
/// libyuv call (for example rotating into NV12, which libyuv only rotates into I420).
///
/// Buffers are lent out and given back, so a steady stream of same-sized frames reuses
/// the same memory and allocates nothing. Concurrent callers each get their own buffer.
final class ScratchPool: Sendable {
    /// The pool behind `ImageTransform`.
    static let shared = ScratchPool()

    /// Enough for a few sizes in flight (video frames, photos, thumbnails) on a few threads.
    private static let capacity = 8
    private let spare: Mutex<[CVBuffer]>

    init() {
        var buffers: [CVBuffer] = []
        // Reserved up front so lending and returning never grows the array.
        buffers.reserveCapacity(ScratchPool.capacity + 1)
        spare = Mutex(buffers)
    }

    /// Runs `body` with a buffer of exactly this format and size, then takes it back.
    func withBuffer<R>(format: PixelFormat, width: Int, height: Int, _ body: (CVBuffer) -> R) -> R {
        let buffer = borrow(format: format, width: width, height: height)
        defer { giveBack(buffer) }
        return body(buffer)
    }

    private func borrow(format: PixelFormat, width: Int, height: Int) -> CVBuffer {
        let found = spare.withLock { buffers -> CVBuffer? in
            guard let index = buffers.firstIndex(where: {
                $0.format == format && $0.width == width && $0.height == height
            }) else { return nil }
            return buffers.remove(at: index)
        }
        return found ?? CVBuffer(format: format, width: width, height: height)
    }

    private func giveBack(_ buffer: CVBuffer) {
        spare.withLock { buffers in
            // Forget the least recently returned size rather than hoard memory.
            if buffers.count >= ScratchPool.capacity { buffers.removeFirst() }
            buffers.append(buffer)
        }
    }
}
