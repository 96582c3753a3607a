import Foundation

/// The files of the machine a `.systemLibrary` target builds against: the headers its module
/// map's headers include (`#include <...>`), the `lib*.so` its `link` lines name and the
/// pkg-config file of its `pkgConfig` name, each found where the compiler and linker look.
/// Whoever builds the target needs the packages these files come from.
struct SystemLibraryFiles {
    /// One file the build needs, and why (for the test's messages).
    struct Need {
        let reason: String
        let path: String
    }

    /// The files found.
    var needs: [Need] = []
    /// What the module map names but this machine lacks.
    var missing: [String] = []

    /// The Debian multiarch folder name of this machine's libraries and headers.
    static var multiarch: String {
        #if arch(x86_64)
            return "x86_64-linux-gnu"
        #elseif arch(arm64)
            return "aarch64-linux-gnu"
        #else
            return "unknown-linux-gnu"
        #endif
    }

    init(_ target: PackageGraph.Target, root: URL) throws {
        let folder = root.appendingPathComponent(target.path)
        let moduleMap = try String(contentsOf: folder.appendingPathComponent("module.modulemap"), encoding: .utf8)
        let headers = Self.quoted(after: "header", in: moduleMap)
        let links = Self.quoted(after: "link", in: moduleMap)
        if headers.isEmpty { missing.append("\(target.name): its module map names no header") }

        var includeFolders = ["/usr/include/\(Self.multiarch)", "/usr/include"]
        var libraryFolders = ["/usr/lib/\(Self.multiarch)", "/usr/lib", "/lib/\(Self.multiarch)", "/lib"]
        if let name = target.pkgConfig {
            guard let pkgConfig = SearchPath.find("pkg-config") else {
                missing.append("\(target.name): pkg-config, to find \(name).pc")
                return
            }
            let folder = try Self.run(pkgConfig, ["--variable=pcfiledir", name])
            if let folder, !folder.isEmpty {
                needs.append(Need(reason: "\(target.name): pkg-config's \(name).pc", path: folder + "/\(name).pc"))
                needs.append(Need(reason: "\(target.name): pkg-config itself", path: pkgConfig))
            } else {
                missing.append("\(target.name): pkg-config finds no \(name).pc")
            }
            // Where SwiftPM's compile and link lines look first (pkg-config's -I and -L).
            includeFolders = Self.flags("-I", try Self.run(pkgConfig, ["--cflags-only-I", name])) + includeFolders
            libraryFolders = Self.flags("-L", try Self.run(pkgConfig, ["--libs-only-L", name])) + libraryFolders
        }
        // The compiler's own headers (stddef.h, stdarg.h, ...) come with the toolchain; clang
        // looks there after the -I folders and before the system's.
        includeFolders.insert(contentsOf: Self.compilerIncludeFolders, at: includeFolders.count - 2)
        for header in headers {
            let text = try String(contentsOf: folder.appendingPathComponent(header), encoding: .utf8)
            for include in Self.systemIncludes(in: text) {
                if let path = includeFolders.map({ $0 + "/" + include }).first(where: FileManager.default.fileExists(atPath:)) {
                    if Self.compilerIncludeFolders.contains(where: { path.hasPrefix($0 + "/") }) { continue }
                    needs.append(Need(reason: "\(target.name): <\(include)>", path: path))
                } else {
                    missing.append("\(target.name): <\(include)> is in none of \(includeFolders.joined(separator: ", "))")
                }
            }
        }
        for library in links {
            let file = "lib\(library).so"
            if let path = libraryFolders.map({ $0 + "/" + file }).first(where: FileManager.default.fileExists(atPath:)) {
                needs.append(Need(reason: "\(target.name): link \"\(library)\"", path: path))
            } else {
                missing.append("\(target.name): \(file) is in none of \(libraryFolders.joined(separator: ", "))")
            }
        }
    }

    /// The header folder of the Swift toolchain's clang (`usr/lib/swift/clang/include` beside
    /// `usr/bin/swift`), empty when swift is not found.
    static let compilerIncludeFolders: [String] = {
        guard let swift = SearchPath.find("swift", also: ["/opt/swift/usr/bin", "/usr/share/swift/usr/bin"]) else { return [] }
        let bin = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
        let folder = bin.deletingLastPathComponent().appendingPathComponent("lib/swift/clang/include").resolvingSymlinksInPath().path
        return FileManager.default.fileExists(atPath: folder) ? [folder] : []
    }()

    /// The strings quoted after `keyword` in a module map: `header "shim.h"`, `link "yuv"`.
    static func quoted(after keyword: String, in moduleMap: String) -> [String] {
        moduleMap.split(separator: "\n").compactMap { line in
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix(keyword + " "), let open = words.firstIndex(of: "\"") else { return nil }
            let rest = words[words.index(after: open)...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }

    /// The `<...>` names of a header's `#include` lines.
    static func systemIncludes(in header: String) -> [String] {
        header.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("#"), text.dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("include"),
                let open = text.firstIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close
            else { return nil }
            return String(text[text.index(after: open)..<close])
        }
    }

    /// The folders of the `-I` or `-L` words in pkg-config's output.
    static func flags(_ prefix: String, _ output: String?) -> [String] {
        (output ?? "").split(separator: " ").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// A program's standard output without its last newline, or nil when it fails.
    static func run(_ program: String, _ arguments: [String]) throws -> String? {
        let output = try ToolRunner.run(program, arguments, path: program)
        return output.status == 0 ? output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }
}
