import CPipeWireRuntime
import CaptureCore
import Foundation
import Synchronization

/// A camera node this process publishes (`media.class=Video/Source`, `media.role=Camera`):
/// browsers, OBS and video-call apps open it as a webcam. Frames are pushed as NV12; the
/// node offers NV12, I420 and YUY2 and converts while copying for consumers that chose the
/// latter two. The node drives the graph its consumers join, one cycle per frame pushed.
///
/// `push` never waits (see `ocpw_publisher_push`): a frame that finds the node busy, or its
/// consumers behind, is dropped and counted. Consumers may come and go: while none reads,
/// frames are not taken and not counted as dropped.
///
/// Threads: `push` and the counters from any thread; `events` runs on the plug-in's loop
/// thread ("OpenCapture.pipewire"), with its lock held: it must hand work elsewhere and
/// never call back into this object.
package final class PipeWireVirtualCamera: @unchecked Sendable {
    /// What the node reports.
    package enum Event: Sendable {
        /// A consumer started reading.
        case streaming
        /// The last consumer left.
        case paused
        /// The node is gone: the daemon stopped or removed it, or PipeWire failed.
        case lost(String)
    }

    /// The formats offered, preferred first.
    static let offered: [Int32] = [Int32(OCPW_FORMAT_NV12.rawValue), Int32(OCPW_FORMAT_I420.rawValue), Int32(OCPW_FORMAT_YUY2.rawValue)]

    package let width: Int
    package let height: Int
    package let name: String
    private let connection: PipeWireConnection
    /// The plug-in's publisher (nil once closed), used under `lock` so `close` cannot free it
    /// mid-push; a push never waits, so neither does a `close` behind it for long.
    private let lock = NSLock()
    private var publisher: OpaquePointer?
    private let box: PublisherEventBox

    /// The socket `remote` names (an absolute path, or a name in the runtime directory; nil
    /// for the default one), or nil when no runtime directory is set.
    package static func socket(for remote: String?) -> String? {
        guard let remote else { return PipeWireConnection.defaultSocket }
        if remote.hasPrefix("/") { return remote }
        let environment = ProcessInfo.processInfo.environment
        return (environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"]).map { "\($0)/\(remote)" }
    }

    /// Publishes a node named `name` of `width` x `height` at `frameRate` frames per second on
    /// the daemon at `remote` (nil: the default one); returns once the node exists.
    package init(
        remote: String? = nil, name: String, description: String, width: Int, height: Int, frameRate: Int,
        events: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(PipeWireError) {
        guard let socket = Self.socket(for: remote), FileManager.default.fileExists(atPath: socket) else {
            throw PipeWireError("no PipeWire daemon is running (no socket at \(Self.socket(for: remote) ?? "$XDG_RUNTIME_DIR/pipewire-0"))")
        }
        let box = PublisherEventBox(events)
        self.box = box
        let connection = try PipeWireConnection(remote: socket) { event in
            if case .daemonGone = event { box.handler(.lost("the PipeWire daemon went away")) }
        }
        self.connection = connection
        self.width = width
        self.height = height
        self.name = name
        guard let context = connection.handle else { throw PipeWireError("the PipeWire daemon went away") }
        var error = [CChar](repeating: 0, count: 256)
        let made = Self.offered.withUnsafeBufferPointer { formats in
            error.withUnsafeMutableBufferPointer { buffer in
                connection.runtime.publisher_create!(
                    context, name, description, formats.baseAddress, Int32(formats.count), Int32(width), Int32(height), Int32(frameRate), 1,
                    { user, state, message in
                        guard let user else { return }
                        let box = Unmanaged<PublisherEventBox>.fromOpaque(user).takeUnretainedValue()
                        switch UInt32(bitPattern: state) {
                        case OCPW_STATE_STREAMING.rawValue: box.handler(.streaming)
                        case OCPW_STATE_PAUSED.rawValue: box.handler(.paused)
                        default: box.handler(.lost(message.map { String(cString: $0) } ?? "the node was lost"))
                        }
                    }, Unmanaged.passUnretained(box).toOpaque(), buffer.baseAddress, buffer.count)
            }
        }
        guard let made else {
            connection.close()
            throw PipeWireError(error.text)
        }
        publisher = made
    }

    deinit { close() }

    /// Removes the node and disconnects; pushes after this are not taken.
    package func close() {
        let made = lock.withLock { () -> OpaquePointer? in
            defer { publisher = nil }
            return publisher
        }
        guard let made else { return }
        connection.runtime.publisher_destroy!(made)
        connection.close()
    }

    /// The node's id in the graph (0 once closed).
    package var nodeID: UInt32 { lock.withLock { publisher.map { connection.runtime.publisher_node_id!($0) } ?? 0 } }

    /// The format consumers negotiated (an OCPWFormat; 0 while none reads).
    package var negotiatedFormat: Int32 { lock.withLock { publisher.map { connection.runtime.publisher_format!($0) } ?? 0 } }

    /// Frames sent to consumers and frames dropped.
    package var sentCount: UInt64 { lock.withLock { publisher.map { connection.runtime.publisher_sent!($0) } ?? 0 } }
    package var droppedCount: UInt64 { lock.withLock { publisher.map { connection.runtime.publisher_dropped!($0) } ?? 0 } }

    /// Hands one NV12 frame of the published size to the node; whether it was taken.
    /// `presentationTime` is host-clock (CLOCK_MONOTONIC) nanoseconds, or -1.
    @discardableResult
    package func push(_ buffer: CVPixelBuffer, sequence: Int64, presentationTime: Int64) -> Bool {
        guard buffer.width == width, buffer.height == height,
            buffer.format == .yuv420BiPlanarVideoRange || buffer.format == .yuv420BiPlanarFullRange
        else { return false }
        return lock.withLock {
            guard let made = publisher else { return false }
            return withExtendedLifetime(buffer) {
                var frame = OCPWFrame()
                frame.planes = 2
                frame.data.0 = UnsafePointer(buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self))
                frame.data.1 = UnsafePointer(buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self))
                frame.stride.0 = Int32(buffer.bytesPerRow(0))
                frame.stride.1 = Int32(buffer.bytesPerRow(1))
                frame.pts = presentationTime
                frame.sequence = sequence
                return connection.runtime.publisher_push!(made, Int32(OCPW_FORMAT_NV12.rawValue), &frame) != 0
            }
        }
    }
}

/// The handler the publisher's state callback reaches.
private final class PublisherEventBox: Sendable {
    let handler: @Sendable (PipeWireVirtualCamera.Event) -> Void
    init(_ handler: @escaping @Sendable (PipeWireVirtualCamera.Event) -> Void) { self.handler = handler }
}
