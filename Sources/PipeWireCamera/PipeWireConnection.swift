import CPipeWireRuntime
import CaptureCore
import Foundation
import Synchronization

/// A camera node of the PipeWire graph, as the plug-in reports it.
package struct PipeWireNode: Sendable, Equatable {
    /// The graph's id (reused after the node goes) and `object.serial` (never reused).
    package var id: UInt32
    package var serial: UInt64
    package var name: String
    package var description: String
    package var mediaClass: String
    package var role: String
    /// `device.api` (v4l2, libcamera), empty for an application's stream.
    package var api: String

    init(_ node: OCPWNode) {
        id = node.id
        serial = node.serial
        name = Self.string(node.name)
        description = Self.string(node.description)
        mediaClass = Self.string(node.media_class)
        role = Self.string(node.role)
        api = Self.string(node.api)
    }

    /// A fixed-size C string field as a Swift string.
    private static func string<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Why PipeWire could not be used.
package struct PipeWireError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Why the Camera portal gave no PipeWire connection.
package struct PipeWirePortalRefusal: Error, Sendable, CustomStringConvertible {
    /// The user (or the permission stored for the app) denied access to cameras, as opposed
    /// to no portal, no camera, or a failure.
    package let denied: Bool
    package let description: String
}

/// One connection to a PipeWire daemon through the plug-in (libOpenCapturePipeWire.so,
/// loaded by CPipeWireRuntime): its camera nodes as they come and go, their formats, and the
/// streams that read or publish frames.
///
/// Threads: `events` runs on the plug-in's loop thread ("OpenCapture.pipewire"), with the
/// loop's lock held: it must hand work elsewhere and never call back into the connection.
/// The other members are called on any other thread.
package final class PipeWireConnection: @unchecked Sendable {
    /// What the daemon told about the graph.
    package enum Event: Sendable {
        case added(PipeWireNode)
        case removed(PipeWireNode)
        /// The connection broke: the daemon stopped or died.
        case daemonGone
    }

    let runtime: OCPWRuntime
    /// The plug-in's context; nil once closed.
    private let context: Mutex<OpaquePointer?>
    private let events: EventBox

    /// The plug-in, or why it cannot be loaded.
    package static func plugin() -> Result<OCPWRuntime, PipeWireError> {
        guard let runtime = ocpw_runtime() else { return .failure(PipeWireError(String(cString: ocpw_runtime_error()))) }
        return .success(runtime.pointee)
    }

    /// Connects to the daemon at `remote` (a socket path or name; nil for PIPEWIRE_REMOTE or
    /// the default), or through `fd` (the Camera portal's connection, taken over). The nodes
    /// there now are reported through `events` before this returns.
    package init(remote: String?, fd: Int32 = -1, events handler: @escaping @Sendable (Event) -> Void) throws(PipeWireError) {
        let runtime = try Self.plugin().get()
        self.runtime = runtime
        let events = EventBox(handler)
        self.events = events
        var error = [CChar](repeating: 0, count: 256)
        let user = Unmanaged.passUnretained(events).toOpaque()
        let made = error.withUnsafeMutableBufferPointer { buffer in
            runtime.connect!(remote, fd, { user, added, node in
                guard let user, let node else { return }
                let box = Unmanaged<EventBox>.fromOpaque(user).takeUnretainedValue()
                box.handler(added != 0 ? .added(PipeWireNode(node.pointee)) : .removed(PipeWireNode(node.pointee)))
            }, { user, _, _ in
                guard let user else { return }
                Unmanaged<EventBox>.fromOpaque(user).takeUnretainedValue().handler(.daemonGone)
            }, user, buffer.baseAddress, buffer.count)
        }
        guard let made else { throw PipeWireError(error.text) }
        context = Mutex(made)
    }

    deinit { close() }

    /// Disconnects; no event arrives after this returns. Streams must be stopped first.
    package func close() {
        guard let context = context.withLock({ value -> OpaquePointer? in defer { value = nil }; return value }) else { return }
        runtime.disconnect!(context)
    }

    /// The plug-in's context, for the streams made on this connection.
    var handle: OpaquePointer? { context.withLock { $0 } }

    /// The formats node `id` offers (nil when it does not answer).
    package func modes(of id: UInt32) -> [OCPWMode]? {
        guard let context = handle else { return nil }
        var modes = [OCPWMode](repeating: OCPWMode(), count: 64)
        let count = modes.withUnsafeMutableBufferPointer { runtime.node_modes!(context, id, $0.baseAddress, Int32($0.count)) }
        guard count >= 0 else { return nil }
        if Int(count) > modes.count {
            modes = [OCPWMode](repeating: OCPWMode(), count: Int(count))
            let again = modes.withUnsafeMutableBufferPointer { runtime.node_modes!(context, id, $0.baseAddress, Int32($0.count)) }
            guard again >= 0 else { return nil }
            return Array(modes.prefix(Int(min(again, count))))
        }
        return Array(modes.prefix(Int(count)))
    }

    /// Whether this process must reach PipeWire through the Camera portal: it runs in a
    /// Flatpak (`/.flatpak-info`) or Snap (`SNAP`) sandbox, or OPENCAPTURE_PIPEWIRE_PORTAL=1
    /// asks for the portal outside one.
    package static var isSandboxed: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["OPENCAPTURE_PIPEWIRE_PORTAL"] == "1" || environment["SNAP"] != nil
            || FileManager.default.fileExists(atPath: "/.flatpak-info")
    }

    /// Asks the Camera portal on the bus at `bus` (nil for the session bus) for a PipeWire
    /// connection, waiting up to `timeout` for the user's answer, and returns its fd (for
    /// `init(remote:fd:events:)`). Blocks the calling thread.
    package static func portalConnection(bus: String?, timeout: Duration) throws(PipeWirePortalRefusal) -> Int32 {
        let runtime: OCPWRuntime
        switch plugin() {
        case .success(let loaded): runtime = loaded
        case .failure(let error): throw PipeWirePortalRefusal(denied: false, description: error.description)
        }
        var error = [CChar](repeating: 0, count: 256)
        var fd: Int32 = -1
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let answer = error.withUnsafeMutableBufferPointer { runtime.portal_open!(bus, milliseconds, &fd, $0.baseAddress, $0.count) }
        guard answer == Int32(OCPW_PORTAL_GRANTED.rawValue) else {
            throw PipeWirePortalRefusal(denied: answer == Int32(OCPW_PORTAL_DENIED.rawValue), description: error.text)
        }
        return fd
    }

    /// The socket a client reaches by default: PIPEWIRE_REMOTE, else `pipewire-0` in
    /// PIPEWIRE_RUNTIME_DIR or XDG_RUNTIME_DIR; nil when none of them names one.
    package static var defaultSocket: String? {
        let environment = ProcessInfo.processInfo.environment
        let name = environment["PIPEWIRE_REMOTE"] ?? "pipewire-0"
        if name.hasPrefix("/") { return name }
        guard let directory = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] else { return nil }
        return "\(directory)/\(name)"
    }
}

/// The handler the plug-in's callbacks reach through their `user` pointer.
private final class EventBox: Sendable {
    let handler: @Sendable (PipeWireConnection.Event) -> Void
    init(_ handler: @escaping @Sendable (PipeWireConnection.Event) -> Void) { self.handler = handler }
}

extension [CChar] {
    /// The C string the array holds (up to its first NUL).
    var text: String {
        String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The last control request a camera was asked to apply, stamped on its frames.
final class AppliedRequests: Sendable {
    let value = Atomic<UInt64>(0)
}
