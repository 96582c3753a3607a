import Foundation
import Synchronization

/// A destination for a session's media. Use a concrete output such as `AVCaptureVideoDataOutput`.
open class AVCaptureOutput: NSObject, @unchecked Sendable {
    private let links = Mutex<Links>(Links())

    private struct Links {
        var connections: [AVCaptureConnection] = []
        weak var session: AVCaptureSession?
    }

    /// Why an output dropped a frame, as `captureOutput(_:didDrop:from:)` reports it.
    public enum DataDroppedReason: Int, Sendable {
        case none = 0
        case lateData = 1
        case outOfBuffers = 2
        case discontinuity = 3
    }

    override init() { super.init() }

    /// The connections feeding this output.
    open var connections: [AVCaptureConnection] { links.withLock { $0.connections } }

    /// The first connection carrying the media type, or `nil`.
    open func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { connection in connection.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// How many connections of this kind the output can take (video data outputs take one).
    var maximumConnectionCount: Int { 1 }

    package var session: AVCaptureSession? { links.withLock { $0.session } }

    func attach(to session: AVCaptureSession?) { links.withLock { $0.session = session } }

    func add(_ connection: AVCaptureConnection) { links.withLock { $0.connections.append(connection) } }

    func remove(_ connection: AVCaptureConnection) {
        links.withLock { $0.connections.removeAll { $0 === connection } }
    }
}
