import Foundation

/// The package's products and targets as SwiftPM reads them (`swift package dump-package`),
/// so a test sees exactly the target graph a user's build sees, not a copy of it.
struct PackageGraph {
    struct Target {
        let name: String
        /// "system" for a `.systemLibrary`, else "regular", "executable", "test", ...
        let type: String
        /// The folder, relative to the package root.
        let path: String
        /// The pkg-config name of a system library, if it has one.
        let pkgConfig: String?
        /// The targets it depends on by name (the package has no dependencies of its own).
        let dependencies: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let root: URL
    /// Each library product and the targets it lists.
    let libraries: [String: [String]]
    let targets: [String: Target]

    /// The package folder this test file is in.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `swift package dump-package` on the package. The scratch folder is a temporary
    /// one: the package's own `.build` may be locked by a build while the tests run.
    static func load(root: URL = packageRoot) throws -> PackageGraph {
        guard let swift = SearchPath.find("swift", also: ["/opt/swift/usr/bin", "/usr/share/swift/usr/bin"]) else {
            throw Failure(description: "swift is not on PATH (nor in /opt/swift/usr/bin): it reads the manifest")
        }
        let scratch = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try ToolRunner.run(
            "swift", ["package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"], path: swift)
        guard output.status == 0 else {
            throw Failure(description: "swift package dump-package failed (\(output.status)): \(output.stderr)")
        }
        return try PackageGraph(root: root, json: output.stdoutData)
    }

    init(root: URL, json: Data) throws {
        self.root = root
        guard let manifest = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let products = manifest["products"] as? [[String: Any]], let targets = manifest["targets"] as? [[String: Any]]
        else { throw Failure(description: "dump-package printed no products and targets") }
        var libraries: [String: [String]] = [:]
        for product in products {
            // "type" is {"library": ["automatic"]} or {"executable": null}.
            guard let name = product["name"] as? String, let type = product["type"] as? [String: Any], type["library"] != nil,
                let members = product["targets"] as? [String]
            else { continue }
            libraries[name] = members
        }
        var byName: [String: Target] = [:]
        for target in targets {
            guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
            // Each dependency is {"byName": [NAME, condition]}, {"target": [NAME, condition]}
            // or {"product": [NAME, PACKAGE, ...]}; products of other packages are not ours.
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
            let folder = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            byName[name] = Target(
                name: name, type: type, path: folder, pkgConfig: target["pkgConfig"] as? String, dependencies: dependencies)
        }
        self.libraries = libraries
        self.targets = byName
    }

    /// The system-library targets a product's targets reach, directly or through others.
    func systemLibraries(of product: String) -> [Target] {
        var seen: Set<String> = []
        var pending = libraries[product] ?? []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let target = targets[name] else { continue }
            pending += target.dependencies
        }
        return seen.compactMap { targets[$0] }.filter { $0.type == "system" }.sorted { $0.name < $1.name }
    }
}
