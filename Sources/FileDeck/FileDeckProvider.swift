import CaptureCore
import Foundation
import MediaIO
import Synchronization

/// The file decks: not discovered (discovery sessions never list them) but made on demand,
/// one per file, by `open(_:)` (`AVCaptureDevice.fileDeck(url:)`).
package final class FileDeckProvider: DeviceProvider {
    /// Every deck made, so the same file gives the same deck.
    private let decks = Mutex<[FileDeckCamera]>([])

    package init() {}

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] { [] }

    /// The deck playing `url`, made on first use.
    /// - Throws: `MovieReaderError` when the file does not open as a deck (see `FileDeckCamera.init(url:)`).
    package func open(_ url: URL) throws -> (any CaptureBackend)? {
        let id = FileDeckCamera.uniqueID(of: url)
        if let known = decks.withLock({ $0.first { $0.descriptor.uniqueID == id } }) { return known }
        let camera = try FileDeckCamera(url: url)
        return decks.withLock { all in
            if let raced = all.first(where: { $0.descriptor.uniqueID == id }) { return raced }
            all.append(camera)
            return camera
        }
    }
}
