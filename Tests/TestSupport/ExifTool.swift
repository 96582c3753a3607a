import Foundation
import Testing

/// exiftool, Phil Harvey's metadata reader: the independent judge of the EXIF, XMP and
/// QuickTime tags the tests write.
package enum ExifTool {
    package static let path = "/usr/bin/exiftool"
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// exiftool's tags of each file (its `-j` JSON), in the order given. `options` as on its
    /// command line: `-n` for numbers as numbers, `-G` for group names. Throws when exiftool
    /// printed no JSON list (it prints one for a file it cannot read, with an error tag).
    package static func tags(_ files: [String], _ options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let outcome = try ChildProcess.run(path, ["-j"] + options + files, stderr: .discard, sourceLocation: sourceLocation)
        guard let list = try JSONSerialization.jsonObject(with: outcome.stdoutData) as? [[String: Any]] else {
            throw ChildProcess.UnreadableOutput(description: "exiftool \(options.joined(separator: " ")) printed no JSON list: \(outcome.stdout.prefix(200))")
        }
        return list
    }

    /// The tags of one file (see `tags(_:_:)`); empty when exiftool names none.
    package static func tags(_ file: String, _ options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try tags([file], options, sourceLocation: sourceLocation).first ?? [:]
    }
}
