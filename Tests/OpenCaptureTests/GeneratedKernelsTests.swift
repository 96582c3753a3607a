import Foundation
import Testing

/// The render kernels' pre-generated assembly (Sources/CRenderKernels/x86_64 and aarch64)
/// must be what `scripts/generate-render-kernels` makes from today's C: each file's header
/// names its sources and their SHA-256, which must match the files as they are now. A kernel
/// changed without regenerating would otherwise run its old code on x86-64 or aarch64 Linux.
@Suite("Generated kernel assembly")
struct GeneratedKernelsTests {
    /// The package's root, from this file's path (Tests/OpenCaptureTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Every generated file, relative to Sources/CRenderKernels: the x86-64 levels and the
    /// one aarch64 build.
    static let builds = ["x86_64/KernelsV4", "x86_64/KernelsV3", "x86_64/KernelsV1", "aarch64/KernelsV1"]

    /// The value of the header line starting `prefix` in `text`.
    static func header(_ prefix: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    @Test func digestMatchesAKnownAnswer() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Two blocks: the padding spills into a second one.
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test(arguments: builds) func stampMatchesTheSources(build: String) throws {
        let assembly = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CRenderKernels/\(build).S"), encoding: .utf8)
        let sources = try #require(Self.header("// Sources: ", in: assembly)).split(separator: " ").map(String.init)
        let stamp = try #require(Self.header("// SHA-256 of the sources, concatenated in that order: ", in: assembly))
        let name = build.split(separator: "/").last.map(String.init) ?? build
        #expect(sources.contains("Sources/CRenderKernels/\(name).c"))
        var bytes: [UInt8] = []
        for source in sources {
            bytes += try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(source)))
        }
        #expect(
            SHA256.hex(bytes) == stamp,
            "Sources/CRenderKernels/\(build).S is stale: run scripts/generate-render-kernels")
    }

    /// Every assembly file the package builds from is one of the files checked above.
    @Test func everyGeneratedFileIsChecked() throws {
        for architecture in ["x86_64", "aarch64"] {
            let folder = Self.root.appendingPathComponent("Sources/CRenderKernels/\(architecture)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".S") }
            #expect(!files.isEmpty, "no assembly for \(architecture)")
            for file in files {
                #expect(Self.builds.contains("\(architecture)/\(file.dropLast(2))"), "\(architecture)/\(file) is not checked")
            }
        }
    }

    /// Every kernel source is stamped by the builds (a new file must be included by one).
    @Test func everyKernelSourceIsStamped() throws {
        var stamped = Set<String>()
        for build in Self.builds {
            let assembly = try String(
                contentsOf: Self.root.appendingPathComponent("Sources/CRenderKernels/\(build).S"), encoding: .utf8)
            stamped.formUnion((Self.header("// Sources: ", in: assembly) ?? "").split(separator: " ").map(String.init))
        }
        let folder = Self.root.appendingPathComponent("Sources/CRenderKernels/Kernels")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".h") {
            #expect(stamped.contains("Sources/CRenderKernels/Kernels/\(file)"), "\(file) is in no generated build")
        }
    }
}
