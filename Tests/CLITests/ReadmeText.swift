import Foundation

/// The parts of README.md that tests hold to the package: the `apt-get install` lines for
/// depending on each product and the `capture` tool's usage block.
struct ReadmeText {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The heading whose first code block is `capture --help`'s text.
    static let usageHeading = "## The `capture` tool"

    let lines: [String]

    init(root: URL = PackageGraph.packageRoot) throws {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        lines = text.components(separatedBy: "\n")
    }

    /// The packages of each `sudo apt-get install ... # PRODUCT: ...` line, by the product
    /// its comment names first.
    var aptLines: [String: [String]] {
        var byProduct: [String: [String]] = [:]
        for line in lines where line.hasPrefix("sudo apt-get install ") {
            let parts = line.split(separator: "#", maxSplits: 1)
            guard parts.count == 2, let product = parts[1].split(whereSeparator: { " :".contains($0) }).first else { continue }
            let words = parts[0].dropFirst("sudo apt-get install ".count).split(separator: " ")
            byProduct[String(product), default: []] += words.filter { !$0.hasPrefix("-") }.map(String.init)
        }
        return byProduct
    }

    /// The first code block after `usageHeading`, without its fences.
    func usageBlock() throws -> String {
        guard let heading = lines.firstIndex(of: Self.usageHeading),
            let open = lines[heading...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw Failure(description: "README.md has no code block under \"\(Self.usageHeading)\"") }
        return lines[(open + 1)..<close].joined(separator: "\n")
    }
}
