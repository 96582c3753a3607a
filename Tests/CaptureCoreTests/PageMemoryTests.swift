import Foundation
import Testing
@testable import CaptureCore

/// Big buffers come from the kernel and go back to it when freed, whatever malloc's state.
@Suite("Page memory")
struct PageMemoryTests {
    @Test func smallAndLargeBlocksAreZeroedAndWritable() {
        for count in [1, 100, PageMemory.mappingThreshold - 1, PageMemory.mappingThreshold, 3 << 20] {
            let memory = PageMemory.allocate(UInt8.self, count: count)
            #expect(UnsafeBufferPointer(start: memory, count: count).allSatisfy { $0 == 0 }, "\(count) bytes")
            memory[count - 1] = 7
            #expect(Int(bitPattern: memory) % 64 == 0)
            PageMemory.deallocate(memory, count: count)
        }
    }

    /// In a child process, so no other test's allocations move RSS meanwhile.
    @Test func aFreedLargeBlockLeavesTheProcess() async {
        await #expect(processExitsWith: .success) {
            func residentMB() -> Double {
                let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
                return Double(fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
            }
            let before = residentMB()
            let count = 64 << 20
            for _ in 0..<3 {
                let memory = PageMemory.allocate(UInt8.self, count: count)
                for page in stride(from: 0, to: count, by: 4096) { memory[page] = 1 }
                let touched = residentMB()
                PageMemory.deallocate(memory, count: count)
                let after = residentMB()
                // 64 MB in while held, all of it out again once freed.
                if touched - before < 60 || after - before > 4 { exit(1) }
            }
        }
    }
}
