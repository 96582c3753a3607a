import Foundation
import Testing

/// The README against the package: its `apt-get install` lines must bring every system
/// library a product builds against, and its `capture` block must be the tool's own usage.
@Suite("README: Debian packages per product, capture usage")
struct ReadmeTests {
    /// Packages every Swift program on Linux already needs (glibc's and the kernel's headers,
    /// under the toolchain's Glibc module), so the README need not list them.
    static let toolchainPackages: Set<String> = ["libc6-dev", "linux-libc-dev"]

    /// What a product's system libraries need that `apt-get install packages` does not bring,
    /// one message each; every file must come from a Debian package.
    static func uncovered(_ product: String, graph: PackageGraph, packages: [String], dpkg: DebianPackages) throws -> [String] {
        var needs: [SystemLibraryFiles.Need] = []
        var problems: [String] = []
        for target in graph.systemLibraries(of: product) {
            let files = try SystemLibraryFiles(target, root: graph.root)
            problems += files.missing.map { "\(product): \($0) (install its package, and add it to the README's line)" }
            if files.needs.isEmpty { problems.append("\(product): \(target.name) needs no file, so its package cannot be checked") }
            needs += files.needs
        }
        let owners = try DebianPackages.owners(of: needs.map(\.path))
        let installed = dpkg.installed(by: packages).union(toolchainPackages)
        for need in needs {
            guard let owner = owners[need.path] else {
                problems.append("\(product): \(need.reason) is \(need.path), which no Debian package installed")
                continue
            }
            if !installed.contains(owner) {
                problems.append("\(product): \(need.reason) is \(need.path), from \(owner), which the README's line does not install")
            }
        }
        return problems
    }

    @Test("the AVFoundation line installs every system library the AVFoundation product builds against")
    func avFoundationLine() throws {
        let graph = try PackageGraph.load()
        let line = try #require(ReadmeText().aptLines["AVFoundation"], "README.md has no 'sudo apt-get install ... # AVFoundation' line")
        let modules = graph.systemLibraries(of: "AVFoundation").map(\.name)
        // The product reaches C libraries (libyuv, FFmpeg's headers, ...); none would mean a misread graph.
        #expect(modules.contains("CYUV") && modules.contains("CFFmpeg"), "\(modules)")
        let problems = try Self.uncovered("AVFoundation", graph: graph, packages: line, dpkg: DebianPackages())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("every other library product is covered by the AVFoundation line and its own line")
    func otherProducts() throws {
        let graph = try PackageGraph.load()
        let lines = try ReadmeText().aptLines
        let dpkg = try DebianPackages()
        for product in lines.keys { #expect(graph.libraries[product] != nil, "README.md has an apt-get line for '\(product)', no library product") }
        for product in graph.libraries.keys.sorted() where product != "AVFoundation" {
            let packages = (lines["AVFoundation"] ?? []) + (lines[product] ?? [])
            let problems = try Self.uncovered(product, graph: graph, packages: packages, dpkg: dpkg)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    /// Without the check failing on a line that lacks packages, the two above would prove nothing.
    @Test("a line without packages leaves every system library of the product uncovered")
    func emptyLineFails() throws {
        let graph = try PackageGraph.load()
        let problems = try Self.uncovered("AVFoundation", graph: graph, packages: [], dpkg: DebianPackages())
        for module in graph.systemLibraries(of: "AVFoundation").map(\.name) {
            #expect(problems.contains { $0.contains(": \(module): ") }, "nothing of \(module) was found missing")
        }
    }

    /// The case the check exists for: someone adds a `.systemLibrary` (here libmicrohttpd,
    /// reached through a regular target) to the product and leaves the README as it is.
    @Test("a system library added to the product without its package on the line is named")
    func addedLibraryFails() throws {
        let root = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let module = root.appendingPathComponent("Sources/CAdded")
        try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
        try "module CAdded [system] {\n    header \"shim.h\"\n    link \"microhttpd\"\n    export *\n}\n"
            .write(to: module.appendingPathComponent("module.modulemap"), atomically: true, encoding: .utf8)
        try "#include <stdint.h>\n#include <microhttpd.h>\n".write(to: module.appendingPathComponent("shim.h"), atomically: true, encoding: .utf8)
        let manifest: [String: Any] = [
            "products": [["name": "AVFoundation", "targets": ["AVFoundation"], "type": ["library": ["automatic"]]]],
            "targets": [
                ["name": "AVFoundation", "type": "regular", "dependencies": [["byName": ["MediaIO", NSNull()]]]],
                ["name": "MediaIO", "type": "regular", "dependencies": [["target": ["CAdded", NSNull()]]]],
                ["name": "CAdded", "type": "system", "path": "Sources/CAdded", "pkgConfig": "libmicrohttpd", "dependencies": []],
            ],
        ]
        let graph = try PackageGraph(root: root, json: JSONSerialization.data(withJSONObject: manifest))
        #expect(graph.systemLibraries(of: "AVFoundation").map(\.name) == ["CAdded"])
        let line = try #require(ReadmeText().aptLines["AVFoundation"])
        let problems = try Self.uncovered("AVFoundation", graph: graph, packages: line, dpkg: DebianPackages())
        #expect(problems.contains { $0.contains("<microhttpd.h>") && $0.hasSuffix("from libmicrohttpd-dev, which the README's line does not install") })
        #expect(problems.contains { $0.contains("link \"microhttpd\"") }, "\(problems)")
        #expect(try Self.uncovered("AVFoundation", graph: graph, packages: line + ["libmicrohttpd-dev"], dpkg: DebianPackages()).isEmpty)
    }

    /// scripts/update-readme-usage rewrites the block from a built `capture`.
    @Test("the README's capture block is what capture --help prints")
    func usageBlock() throws {
        let help = try ToolRunner.capture("--help")
        #expect(help.status == 0)
        #expect(
            try ReadmeText().usageBlock() + "\n" == help.stdout,
            "README.md's block under \"\(ReadmeText.usageHeading)\" differs from capture --help: run scripts/update-readme-usage")
    }
}
