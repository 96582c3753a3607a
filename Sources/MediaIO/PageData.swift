import CaptureCore
import Foundation

/// `Data` whose bytes live in page-mapped memory (`PageMemory`), for files of megabytes
/// made per photo: when the last copy goes, the pages go back to the kernel instead of
/// leaving a hole in malloc's heaps.
enum PageData {
    /// `count` bytes written by `fill` (which must write all of them).
    static func make(count: Int, _ fill: (UnsafeMutableRawPointer) throws -> Void) rethrows -> Data {
        let memory = PageMemory.allocate(byteCount: count)
        do { try fill(memory) } catch {
            PageMemory.deallocate(memory, byteCount: count)
            throw error
        }
        return Data(bytesNoCopy: memory, count: count, deallocator: .custom { pointer, count in
            PageMemory.deallocate(pointer, byteCount: count)
        })
    }
}
