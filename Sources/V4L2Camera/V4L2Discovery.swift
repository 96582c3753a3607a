import Foundation
import Glibc

/// Finds the video-capture nodes under /dev.
package enum V4L2Discovery {
    /// What a scan found: cameras, and nodes this process may not open (EACCES).
    package struct Result: Sendable {
        package var cameras: [V4L2Camera] = []
        package var deniedPaths: [String] = []
    }

    /// The directory scanned; tests inside the vivid VM use the real /dev.
    package static let deviceDirectory = "/dev"

    /// `/dev/video*` paths, in numeric order.
    package static func nodePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { "\(deviceDirectory)/\($0)" }
    }

    /// Opens each node once. Nodes that are not cameras (metadata, output, codecs) are skipped.
    package static func scan() -> Result {
        var result = Result()
        for path in nodePaths() {
            do {
                if let camera = try V4L2Camera(path: path) { result.cameras.append(camera) }
            } catch where error.code == EACCES || error.code == EPERM {
                result.deniedPaths.append(path)
            } catch {
                continue  // busy probing or vanished meanwhile: the hot-plug monitor retries
            }
        }
        return result
    }
}
