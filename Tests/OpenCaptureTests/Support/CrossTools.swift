import Foundation
import Testing
import TestSupport

/// The compiler, emulator and aarch64 libraries the parity test needs, and how it uses them.
struct CrossTools: Sendable {
    /// The package's root, from this file's path (Tests/OpenCaptureTests/Support/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let kernels = "\(root)/Sources/CRenderKernels"
    static let x86Assembly = ["V4", "V3", "V1"].map { "\(kernels)/x86_64/Kernels\($0).S" }
    /// A static program needs no aarch64 loader or library path under qemu.
    static let aarch64Flags = ["--target=aarch64-linux-gnu", "-fuse-ld=lld", "-static"]

    let clang: String
    let qemu: String

    /// What a run of the driver printed and wrote.
    struct Run {
        /// The kernel build it ran (oc_render_kernel_level).
        var level: String
        /// Each kernel's outputs, by name.
        var outputs: [String: [UInt8]]
    }

    private static let located = locate()
    /// The tools, or nil with `missing` saying why.
    static var found: CrossTools? { located.tools }
    /// Why the test cannot run here; nil when it can.
    static var missing: String? { located.missing }

    private static func locate() -> (tools: CrossTools?, missing: String?) {
        #if !(arch(x86_64) && os(Linux))
        return (nil, "the reference results are the x86-64 Linux build's; this host is not x86-64 Linux")
        #else
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        func onPath(_ name: String) -> String? {
            path.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        // The Swift toolchain's clang (beside `swift`), whose ld.lld links for aarch64.
        let toolchain = onPath("swift").map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent().path }
        guard let bin = [toolchain, "/opt/swift/usr/bin"].compactMap({ $0 }).first(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/clang") && FileManager.default.isExecutableFile(atPath: "\($0)/ld.lld")
        }) else {
            return (nil, "the Swift toolchain's clang and ld.lld were not found (put the toolchain's bin on PATH)")
        }
        guard let qemu = onPath("qemu-aarch64-static") ?? ["/usr/bin/qemu-aarch64-static"].first(where: FileManager.default.isExecutableFile)
        else {
            return (nil, "qemu-aarch64-static is missing (Debian: qemu-user-static)")
        }
        guard FileManager.default.fileExists(atPath: "/usr/aarch64-linux-gnu/lib/libc.a") else {
            return (nil, "the aarch64 C library is missing (Debian: libc6-dev-arm64-cross)")
        }
        let gcc = "/usr/lib/gcc-cross/aarch64-linux-gnu"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: gcc)) ?? []
        guard versions.contains(where: { FileManager.default.fileExists(atPath: "\(gcc)/\($0)/libgcc.a") }) else {
            return (nil, "libgcc for aarch64 is missing (Debian: libgcc-12-dev-arm64-cross)")
        }
        return (CrossTools(clang: "\(bin)/clang", qemu: qemu), nil)
        #endif
    }

    /// Every kernel's name, from Kernels/List.h (`OC_KERNEL(name, …`).
    static func kernelNames() throws -> [String] {
        let list = try String(contentsOfFile: "\(kernels)/Kernels/List.h", encoding: .utf8)
        return list.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("OC_KERNEL(") else { return nil }
            return line.dropFirst("OC_KERNEL(".count).split(separator: ",").first.map(String.init)
        }
    }

    /// The kernels whose x86-64-v3 build has fused multiply-adds (from the checked-in assembly).
    static func fusingKernels() throws -> Set<String> {
        let assembly = try String(contentsOfFile: "\(kernels)/x86_64/KernelsV3.S", encoding: .utf8)
        var kernels = Set<String>(), current: String?
        for line in assembly.split(separator: "\n") {
            if line.hasSuffix("_v3:"), !line.hasPrefix(".") { current = String(line.dropLast(4)) }
            if let current, line.contains("vfmadd") || line.contains("vfmsub") || line.contains("vfnmadd") || line.contains("vfnmsub") {
                kernels.insert(current)
            }
        }
        return kernels
    }

    /// Builds the driver with every C file of the kernels and `flags` into `program`, runs it
    /// (under qemu when `emulated`) writing into the directory `output`, and reads the results.
    func run(compiled program: URL, flags: [String], emulated: Bool, into output: URL) throws -> Run {
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.kernels).filter { $0.hasSuffix(".c") }.sorted()
        let arguments =
            flags + ["-I", "\(Self.kernels)/include", "\(Self.root)/scripts/kernel-parity.c"]
            + sources.map { "\(Self.kernels)/\($0)" } + ["-lm", "-o", program.path]
        let compile = try ChildProcess.run(clang, arguments)
        try #require(compile.succeeded, "clang \(arguments.joined(separator: " ")) failed: \(compile.stderr)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let outcome =
            emulated
            ? try ChildProcess.run(qemu, [program.path, output.path]) : try ChildProcess.run(program.path, [output.path])
        try #require(outcome.succeeded, "\(program.lastPathComponent) failed: \(outcome.stderr)")
        var outputs: [String: [UInt8]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".bin") {
            outputs[String(file.dropLast(4))] = try [UInt8](Data(contentsOf: output.appendingPathComponent(file)))
        }
        return Run(level: outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines), outputs: outputs)
    }
}
