import Foundation

/// What dpkg knows about this machine: which package a file comes from, and which packages
/// `apt-get install` of a list would bring (the list and what it depends on).
struct DebianPackages {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Each installed package's dependencies: one list of alternatives per dependency.
    private var depends: [String: [[String]]] = [:]
    /// Virtual package names and the installed packages providing them.
    private var providers: [String: [String]] = [:]

    init() throws {
        let output = try ToolRunner.run(
            "dpkg-query", ["-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Provides}\t${Depends}, ${Pre-Depends}\n"],
            path: try Self.program("dpkg-query"))
        for line in output.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[0].hasPrefix("ii") else { continue }
            depends[fields[1]] = Self.relations(fields[3])
            for provided in Self.relations(fields[2]).flatMap({ $0 }) { providers[provided, default: []].append(fields[1]) }
        }
    }

    /// The package each file comes from (`dpkg -S`), by path; files of no package are absent.
    static func owners(of paths: [String]) throws -> [String: String] {
        let output = try ToolRunner.run("dpkg", ["-S"] + paths, path: try program("dpkg"))
        var owners: [String: String] = [:]
        // "libyuv-dev:amd64: /usr/include/libyuv.h"; diversions are listed too, and skipped.
        for line in output.stdout.split(separator: "\n") where !line.hasPrefix("diversion ") {
            guard let separator = line.range(of: ": /") else { continue }
            let package = line[..<separator.lowerBound].split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            owners[String(line[line.index(before: separator.upperBound)...])] = String(package.split(separator: ":").first ?? "")
        }
        return owners
    }

    /// `packages` and everything they depend on, as apt would install them: of alternatives
    /// the first installed one (a virtual name stands for its installed providers).
    func installed(by packages: [String]) -> Set<String> {
        var closure: Set<String> = []
        var pending = packages
        while let package = pending.popLast() {
            guard closure.insert(package).inserted, let relations = depends[package] else { continue }
            for alternatives in relations {
                let chosen = alternatives.lazy.compactMap { name in
                    depends[name] != nil ? [name] : providers[name]
                }.first
                pending += chosen ?? []
            }
        }
        return closure
    }

    /// "a (>= 1), b:any | c" as [["a"], ["b", "c"]].
    static func relations(_ field: String) -> [[String]] {
        field.split(separator: ",").map { relation in
            relation.split(separator: "|").compactMap { alternative in
                let name = alternative.trimmingCharacters(in: .whitespaces).prefix { !" (:[".contains($0) }
                return name.isEmpty ? nil : String(name)
            }
        }.filter { !$0.isEmpty }
    }

    static func program(_ name: String) throws -> String {
        guard let path = SearchPath.find(name, also: ["/usr/bin", "/bin"]) else {
            throw Failure(description: "\(name) is missing: this check maps files to Debian packages")
        }
        return path
    }
}
