import Foundation
import Testing
import TestSupport

/// The render kernels on aarch64 give the x86-64 results bit for bit. `scripts/kernel-parity.c`
/// runs every kernel of Kernels/List.h on seeded inputs and writes each one's outputs; it is
/// built here for x86-64 as the package links the kernels (the checked-in assembly, the
/// build the dispatcher picks on this CPU) and cross-compiled for aarch64 three ways: with
/// the checked-in aarch64 assembly (what a Raspberry Pi build links), and from the C at -O0
/// and at -O3 (`OC_PORTABLE_KERNELS`). The aarch64 programs run under qemu-aarch64-static.
/// The tools: the Swift toolchain's clang and ld.lld, Debian's libc6-dev-arm64-cross,
/// libgcc-12-dev-arm64-cross and qemu-user-static (scripts/install-deps); without them the
/// suite is skipped, naming what is missing.
@Suite("Render kernels on aarch64")
struct KernelParityTests {
    /// One aarch64 build of the driver.
    enum Build: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case assembly = "checked-in assembly, driver at -O0"
        case cAtO0 = "C at -O0"
        case cAtO3 = "C at -O3"

        var testDescription: String { rawValue }

        /// What clang gets besides the driver and the C files.
        var flags: [String] {
            switch self {
            case .assembly: ["-O0", "\(CrossTools.kernels)/aarch64/KernelsV1.S"]
            case .cAtO0: ["-O0", "-DOC_PORTABLE_KERNELS"]
            case .cAtO3: ["-O3", "-DOC_PORTABLE_KERNELS"]
            }
        }
    }

    @Test(.enabled(if: CrossTools.missing == nil, Comment(rawValue: CrossTools.missing ?? "")), arguments: Build.allCases)
    func matchesX86(build: Build) throws {
        let tools = try #require(CrossTools.found)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("oc-kernel-parity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

        // The x86-64 reference: the package's own way (assembly for every level, the dispatcher).
        let reference = try tools.run(
            compiled: work.appendingPathComponent("x86_64"),
            flags: ["-O0"] + CrossTools.x86Assembly, emulated: false, into: work.appendingPathComponent("x86_64.out"))
        let arm = try tools.run(
            compiled: work.appendingPathComponent("aarch64"), flags: CrossTools.aarch64Flags + build.flags,
            emulated: true, into: work.appendingPathComponent("aarch64.out"))
        #expect(arm.level == "arm64", "the aarch64 driver ran the \(arm.level) build")

        // Where the x86-64 build has no FMA (a CPU without x86-64-v3), the kernels its v3 build
        // fuses multiply-adds in round differently there; aarch64 fuses them as v3 and v4 do.
        let fused = reference.level == "x86-64" ? try CrossTools.fusingKernels() : []
        for kernel in try CrossTools.kernelNames() {
            let expected = reference.outputs[kernel], actual = arm.outputs[kernel]
            #expect(expected != nil, "the x86-64 driver wrote nothing for \(kernel)")
            #expect(actual != nil, "the aarch64 driver (\(build.rawValue)) wrote nothing for \(kernel)")
            guard let expected, let actual, !fused.contains(kernel) else { continue }
            #expect(expected.count == actual.count, "\(kernel): \(actual.count) bytes on aarch64, \(expected.count) on x86-64")
            if let offset = expected.indices.first(where: { $0 < actual.count && expected[$0] != actual[$0] }) {
                Issue.record(
                    "\(kernel): aarch64 (\(build.rawValue)) differs from x86-64 (\(reference.level)) first at byte \(offset) of \(expected.count): \(actual[offset]) instead of \(expected[offset])")
            }
        }
        if !fused.isEmpty {
            print("KernelParityTests: this CPU runs the baseline x86-64 build; not compared: \(fused.sorted().joined(separator: ", "))")
        }
    }
}
