import Foundation
import Synchronization

/// Flags for `CVPixelBufferLockBaseAddress`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    public let rawValue: CVOptionFlags
    public init(rawValue: CVOptionFlags) { self.rawValue = rawValue }
    /// The caller only reads the pixels. The corresponding C constant is `kCVPixelBufferLock_ReadOnly`.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 0x1)
}

/// A Core Video buffer. On Linux every buffer is an image buffer holding pixels in memory
/// with rows aligned to 64 bytes.
///
/// `CVImageBuffer` and `CVPixelBuffer` are aliases of this class, as in Apple's SDK.
/// Pixels are reachable only between `CVPixelBufferLockBaseAddress` and
/// `CVPixelBufferUnlockBaseAddress`; outside that the base addresses are `nil`.
public final class CVBuffer: @unchecked Sendable {
    /// Row and plane alignment in bytes.
    package static let alignment = 64

    package let format: PixelFormat
    package let width: Int
    package let height: Int
    package let planes: [Plane]
    package let storage: UnsafeMutableRawPointer
    package let byteCount: Int
    /// What keeps wrapped memory alive (a driver's mapped buffers); nil when the buffer
    /// allocated its own storage, which it then frees.
    private let memoryOwner: AnyObject?
    private let lockCount = Atomic<Int>(0)
    /// Colour attachments and others, set by whoever fills the buffer.
    package let attachmentStore = Locked<[String: any Sendable]>([:])
    /// How each attachment propagates, for keys set with `shouldNotPropagate` (others propagate).
    package let attachmentModes = Locked<[String: CVAttachmentMode]>([:])
    /// Objects handed out by `CVBufferGetAttachment`, kept while the buffer lives.
    package let attachmentObjects = Locked<[String: AttachmentObject]>([:])

    package struct Plane: Sendable {
        package var offset: Int
        package var width: Int
        package var height: Int
        package var bytesPerRow: Int

        package init(offset: Int, width: Int, height: Int, bytesPerRow: Int) {
            self.offset = offset
            self.width = width
            self.height = height
            self.bytesPerRow = bytesPerRow
        }
    }

    package init(format: PixelFormat, width: Int, height: Int) {
        precondition(width > 0 && height > 0, "pixel buffer size must be positive")
        self.format = format
        self.width = width
        self.height = height
        var planes: [Plane] = []
        var offset = 0
        for geometry in format.planeGeometry(width: width, height: height) {
            let bytesPerRow = CVBuffer.aligned(geometry.width * geometry.bytesPerPixel)
            planes.append(Plane(offset: offset, width: geometry.width, height: geometry.height, bytesPerRow: bytesPerRow))
            offset = CVBuffer.aligned(offset + bytesPerRow * geometry.height)
        }
        self.planes = planes
        self.byteCount = offset
        // Zero-filled; a frame-sized buffer is mapped, so freeing it never fragments malloc's heaps.
        self.storage = PageMemory.allocate(byteCount: offset, alignment: CVBuffer.alignment)
        memoryOwner = nil
    }

    /// A buffer over memory someone else owns (a V4L2 device's mapped buffer), so frames
    /// reach the outputs without a copy. `owner` is kept alive as long as the buffer is,
    /// and is what unmaps the memory; `planes` give each plane's offset and row stride.
    package init(format: PixelFormat, width: Int, height: Int, planes: [Plane], wrapping memory: UnsafeMutableRawPointer, byteCount: Int, owner: AnyObject) {
        precondition(planes.count == max(format.planeCount, 1), "plane count must match the pixel format")
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
        self.storage = memory
        self.byteCount = byteCount
        memoryOwner = owner
    }

    deinit {
        if memoryOwner == nil { PageMemory.deallocate(storage, byteCount: byteCount) }
    }

    /// Whether the pixels are someone else's memory (a driver buffer), not a copy.
    package var isWrapping: Bool { memoryOwner != nil }

    package static func aligned(_ value: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }

    /// Whether the buffer is locked right now.
    package var isLocked: Bool { lockCount.load(ordering: .acquiring) > 0 }

    package func lock() { lockCount.add(1, ordering: .acquiringAndReleasing) }

    package func unlock() -> Bool {
        let previous = lockCount.subtract(1, ordering: .acquiringAndReleasing).oldValue
        if previous <= 0 {
            lockCount.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// The address of a plane's first byte, for code inside this package that fills or reads
    /// the buffer without going through the lock (the producer owns it at that moment).
    package func planeAddress(_ index: Int) -> UnsafeMutableRawPointer {
        storage + planes[index].offset
    }

    /// Bytes per row of a plane (the single plane of a packed format at index 0).
    package func bytesPerRow(_ index: Int) -> Int { planes[index].bytesPerRow }
}

/// An image buffer. The same class as `CVBuffer`, as in Apple's SDK.
public typealias CVImageBuffer = CVBuffer
/// A pixel buffer. The same class as `CVBuffer`, as in Apple's SDK.
public typealias CVPixelBuffer = CVImageBuffer
