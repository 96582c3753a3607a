/// Bytes in page-mapped memory (`PageMemory`) with one owner object, for big immutable
/// payloads shared between modules: a decoded scene picture, say (36 MB at 12 MP).
///
/// Thread safety: write it before sharing it; after that it is read-only, and reads from
/// any thread are safe.
package final class PageBuffer: @unchecked Sendable {
    package let count: Int
    package let bytes: UnsafeMutablePointer<UInt8>

    /// `count` zero bytes.
    package init(count: Int) {
        self.count = count
        bytes = PageMemory.allocate(UInt8.self, count: count)
    }

    /// A copy of `array`.
    package convenience init(_ array: [UInt8]) {
        self.init(count: array.count)
        array.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { bytes.update(from: start, count: source.count) }
        }
    }

    deinit {
        PageMemory.deallocate(bytes, count: count)
    }

    /// The bytes as an array (a copy; for tests and small payloads).
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: count)) }
}
