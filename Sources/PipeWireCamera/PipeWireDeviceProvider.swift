import CaptureCore
import Foundation
import Synchronization

/// The cameras a PipeWire daemon shares (`pipewire:<node name>`): its camera nodes found
/// through the registry at first use, then followed as they come and go.
///
/// Nothing is loaded while no daemon's socket exists (a server, a container, the tests'
/// hosts): the plug-in and libpipewire are loaded on the first connection only. A daemon that
/// starts later is tried again at the registry's uses, at most once a second. A removed node
/// disconnects its camera; a daemon that goes disconnects them all.
///
/// Sandboxed (Flatpak, Snap, or OPENCAPTURE_PIPEWIRE_PORTAL=1), the provider opens no socket:
/// it asks the Camera portal for a connection (which may show the user a dialog; discovery
/// waits for the answer). A denial is kept: no PipeWire cameras, `connectionFailure` says why,
/// and the portal is not asked again by this provider.
///
/// Threads: the plug-in reports nodes on its loop thread; this provider hands every event to
/// a serial queue of its own ("OpenCapture.pipewire.events"), where cameras are made (their
/// formats asked of the daemon), disconnected and reported.
package final class PipeWireDeviceProvider: DeviceProvider {
    private struct State {
        var connection: PipeWireConnection?
        var cameras: [PipeWireCamera] = []
        var report: (@Sendable (DeviceChange) -> Void)?
        var lastAttempt: ContinuousClock.Instant?
        /// Why the last connection attempt failed (diagnostics).
        var failure: String?
        /// The Camera portal denied access: not asked again.
        var portalDenied = false
    }

    /// Where the daemon is reached.
    private enum Route {
        /// Its socket (a path; nil for the default one).
        case socket(String?)
        /// The Camera portal on the D-Bus bus at this address (nil for the session bus).
        case portal(bus: String?)
    }

    private let route: Route
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "OpenCapture.pipewire.events")

    /// How long the Camera portal may take to answer (the user reads its dialog).
    private static let portalTimeout = Duration.seconds(120)

    /// A provider of the daemon at `remote` (a socket path); nil for the default one
    /// (PIPEWIRE_REMOTE, or `pipewire-0` in the runtime directory), or, when the process is
    /// sandboxed (`PipeWireConnection.isSandboxed`), the one the Camera portal hands out.
    package init(remote: String? = nil) {
        route = remote == nil && PipeWireConnection.isSandboxed ? .portal(bus: nil) : .socket(remote)
    }

    /// A provider that reaches the daemon through the Camera portal on the D-Bus bus at
    /// `portalBus` (a D-Bus address, e.g. a test's private bus), sandboxed or not.
    package init(portalBus: String) {
        route = .portal(bus: portalBus)
    }

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        state.withLock { $0.report = report }
        connect()
        return state.withLock { $0.cameras }
    }

    package func startWatching() {
        let retry = state.withLock { state -> Bool in
            guard state.connection == nil, state.report != nil, !state.portalDenied else { return false }
            if let last = state.lastAttempt, ContinuousClock.now - last < .seconds(1) { return false }
            return true
        }
        guard retry else { return }
        connect()
        let found = state.withLock { ($0.cameras.filter(\.isConnected), $0.report) }
        if !found.0.isEmpty { found.1?(.added(found.0)) }
    }

    /// After the Camera portal denied access, what `AVCaptureDevice.authorizationStatus(for:
    /// .video)` answers `.denied` for (and `accessHint` says): the portal, and how to allow it.
    package func inaccessibleNodes(_ media: DeviceMedia) -> [String] {
        guard media == .video, state.withLock({ $0.portalDenied }) else { return [] }
        return ["The Camera portal denied camera access: allow this app in the desktop's privacy settings (or: flatpak permission-reset <app-id>)."]
    }

    /// Why the provider has no connection, when it has none.
    package var connectionFailure: String? { state.withLock { $0.connection == nil ? $0.failure : nil } }

    /// The cameras made so far (connected or not).
    package var cameras: [PipeWireCamera] { state.withLock { $0.cameras } }

    /// Connects and makes the cameras there now (their events are queued until then).
    private func connect() {
        state.withLock { $0.lastAttempt = .now }
        var socket: String?
        var fd: Int32 = -1
        switch route {
        case .socket(let remote):
            guard let path = remote ?? PipeWireConnection.defaultSocket, FileManager.default.fileExists(atPath: path) else {
                state.withLock { $0.failure = "no PipeWire daemon socket" }
                return
            }
            socket = path
        case .portal(let bus):
            if state.withLock({ $0.portalDenied }) { return }
            do {
                fd = try PipeWireConnection.portalConnection(bus: bus, timeout: Self.portalTimeout)
            } catch {
                state.withLock { state in
                    state.failure = error.description
                    state.portalDenied = error.denied
                }
                return
            }
        }
        // Events before the connection is stored are kept, then handled in order here.
        let gate = EventGate()
        do {
            let connection = try PipeWireConnection(remote: socket, fd: fd) { [weak self] event in
                guard !gate.keep(event), let self else { return }
                queue.async { self.handle(event) }
            }
            state.withLock { $0.connection = connection }
            // Made before discovery returns, on the queue so later events come after them.
            queue.sync { for event in gate.open() { handle(event, announcing: false) } }
        } catch {
            state.withLock { $0.failure = error.description }
        }
    }

    /// An event from the daemon (on the provider's queue, or the discovering thread).
    private func handle(_ event: PipeWireConnection.Event, announcing: Bool = true) {
        switch event {
        case .added(let node):
            guard let connection = state.withLock({ $0.connection }) else { return }
            let id = uniqueID(for: node)
            guard let camera = PipeWireCamera(node: node, uniqueID: id, connection: connection) else { return }
            let report = state.withLock { state -> (@Sendable (DeviceChange) -> Void)? in
                state.cameras.removeAll { !$0.isConnected }
                state.cameras.append(camera)
                return state.report
            }
            if announcing { report?(.added([camera])) }
        case .removed(let node):
            let gone = state.withLock { $0.cameras.filter { $0.node.id == node.id && $0.node.serial == node.serial } }
            for camera in gone { camera.markDisconnected() }
        case .daemonGone:
            let (cameras, connection) = state.withLock { state -> ([PipeWireCamera], PipeWireConnection?) in
                defer { state.connection = nil }
                return (state.cameras, state.connection)
            }
            for camera in cameras { camera.markDisconnected() }
            connection?.close()
        }
    }

    /// `pipewire:<node name>`, or `pipewire:<serial>` when a connected camera has the name
    /// already (two streams of one program, named alike).
    private func uniqueID(for node: PipeWireNode) -> String {
        let taken = state.withLock { $0.cameras.contains { $0.isConnected && $0.node.name == node.name } }
        return taken || node.name.isEmpty ? "pipewire:\(node.serial)" : "pipewire:\(node.name)"
    }
}

/// Holds a connection's first events until the provider can handle them.
private final class EventGate: Sendable {
    /// nil once open.
    private let held = Mutex<[PipeWireConnection.Event]?>([])

    /// Keeps `event` while closed; false when open (the caller handles it).
    func keep(_ event: PipeWireConnection.Event) -> Bool {
        held.withLock { held in
            guard held != nil else { return false }
            held!.append(event)
            return true
        }
    }

    /// Opens, returning the events kept.
    func open() -> [PipeWireConnection.Event] {
        held.withLock { held in
            defer { held = nil }
            return held ?? []
        }
    }
}
