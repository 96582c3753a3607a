import Foundation

/// Publishes the session's camera as a camera of the desktop (Linux addition; iOS has no such
/// output): a PipeWire node with `media.class=Video/Source` and `media.role=Camera` that a
/// browser, OBS or a video-call app opens like a webcam, with no kernel module. Any camera
/// works: simulated, a file deck, V4L2, libcamera, PipeWire.
///
/// ```swift
/// let virtualCamera = AVCaptureVirtualCameraOutput()
/// virtualCamera.localizedName = "Studio Camera"
/// session.addOutput(virtualCamera)
/// try virtualCamera.startPublishing()
/// session.startRunning()
/// ```
///
/// The node appears at the first frame after `startPublishing()` while the session runs,
/// at that frame's size (the camera's, turned as the connection says, or `videoDimensions`
/// when smaller with the same aspect ratio), offering NV12, I420 and YUY2 at `frameRate`
/// frames per second; consumers negotiate one (all consumers at a time share one). It goes
/// when the session stops or `stopPublishing()` is called, and comes back at the next
/// frame of the next run. Needs a running PipeWire daemon and the PipeWire plug-in (the
/// `OpenCapturePipeWire` product beside the program); `startPublishing()` throws, naming
/// which is missing. Nothing links the node by itself: a desktop's session manager
/// (WirePlumber) links it to the app that opens it.
///
/// **Never in the way of capture.** Frames are converted to NV12 by the session's router
/// into the output's pools and copied into the node's one-frame slot without waiting; the
/// plug-in's loop thread ("OpenCapture.pipewire") sends them. A frame that finds the slot
/// busy or every buffer still with a consumer (a slow consumer) is dropped and counted
/// (`droppedFrameCount`). Consumers may come and go at any time (`hasConsumers`); while
/// none reads, frames are neither sent nor counted as dropped. Nor does it pace a camera in
/// virtual time: such a camera runs as fast as the session's other outputs let it.
///
/// **Threads.** Every property may be read from any thread. The node is made and removed on
/// the output's own queue ("OpenCapture.virtualCamera"), never on the capture thread.
open class AVCaptureVirtualCameraOutput: AVCaptureOutput, @unchecked Sendable {
    /// Why publishing could not start or go on.
    public struct PublishingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line saying what went wrong.
        public let message: String
        public var description: String { message }
        public init(_ message: String) { self.message = message }
    }

    private struct State {
        var name = "opencapture-camera"
        var localizedName = "OpenCapture Camera"
        var frameRate = 30
        var videoDimensions: CMVideoDimensions?
        var remote: String?
        var publishing = false
        /// A node is being made on the queue.
        var making = false
        var node: (any VirtualCameraNode)?
        var hasConsumers = false
        /// Counts of nodes closed before, so the totals cover every node of the output.
        var sentBefore = 0
        var droppedBefore = 0
        /// Frames of another size than the node's (the camera's format changed).
        var mismatched = 0
        var lastError: PublishingError?
        /// No new node before this host time after a failure (nanoseconds).
        var retryAfter: UInt64 = 0
    }

    private let state = NSLock()
    private var values = State()
    private let queue = DispatchQueue(label: "OpenCapture.virtualCamera")
    /// The pools converted frames come from, kept across runs (see `OutputPools`).
    let pools = OutputPools()

    public override init() { super.init() }

    /// An output let go while publishing removes its node.
    deinit {
        let node = values.node
        node?.close()
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        state.lock()
        defer { state.unlock() }
        return body(&values)
    }

    // MARK: Settings (applied when the node is made)

    /// The node's name (`node.name`), which `pw-link` and `target.object` use; default
    /// "opencapture-camera" (an empty name restores it).
    open var name: String {
        get { locked { $0.name } }
        set { locked { $0.name = newValue.isEmpty ? "opencapture-camera" : newValue } }
    }

    /// The name apps show in their camera menus (`node.description`); default
    /// "OpenCapture Camera" (an empty name restores it).
    open var localizedName: String {
        get { locked { $0.localizedName } }
        set { locked { $0.localizedName = newValue.isEmpty ? "OpenCapture Camera" : newValue } }
    }

    /// The frame rate the node announces (default 30, at least 1). Frames go out as the
    /// camera delivers them whatever the rate says.
    open var frameRate: Int {
        get { locked { $0.frameRate } }
        set { locked { $0.frameRate = max(1, newValue) } }
    }

    /// The size to publish, nil for the camera's; frames are scaled to it when it is smaller
    /// with the same aspect ratio, else published at their own size.
    open var videoDimensions: CMVideoDimensions? {
        get { locked { $0.videoDimensions } }
        set { locked { $0.videoDimensions = newValue } }
    }

    /// The daemon's socket (an absolute path or a name in the runtime directory); nil for
    /// the user's (PIPEWIRE_REMOTE, else `pipewire-0` in XDG_RUNTIME_DIR).
    open var pipeWireRemote: String? {
        get { locked { $0.remote } }
        set { locked { $0.remote = newValue } }
    }

    // MARK: Publishing

    /// Starts publishing: the node appears at the next frame of a running session.
    ///
    /// - Throws: `PublishingError` when the PipeWire plug-in is not beside the program, its
    ///   libpipewire is missing, or no PipeWire daemon runs.
    open func startPublishing() throws(PublishingError) {
        if let reason = VirtualCameraNodes.unavailability(remote: pipeWireRemote) { throw PublishingError(reason) }
        locked {
            $0.publishing = true
            $0.lastError = nil
            $0.retryAfter = 0
        }
    }

    /// Removes the node (its consumers see the camera go) and stops publishing; returns once
    /// the node is gone.
    open func stopPublishing() {
        locked { $0.publishing = false }
        removeNode()
    }

    /// Whether the output publishes (from `startPublishing` to `stopPublishing`).
    open var isPublishing: Bool { locked { $0.publishing } }
    /// Whether the node exists now (publishing, and a frame of this run has arrived).
    open var isNodePublished: Bool { locked { $0.node != nil } }
    /// Whether a consumer reads the node now.
    open var hasConsumers: Bool { locked { $0.hasConsumers } }
    /// The published size, while the node exists.
    open var publishedDimensions: CMVideoDimensions? {
        locked { $0.node.map { CMVideoDimensions(width: Int32($0.width), height: Int32($0.height)) } }
    }
    /// The node's id in the PipeWire graph, while it exists.
    open var nodeID: UInt32? { locked { $0.node }.map { $0.nodeID } }
    /// Frames sent to consumers since the output was made.
    open var publishedFrameCount: Int {
        let (node, before) = locked { ($0.node, $0.sentBefore) }
        return before + Int(node?.sentCount ?? 0)
    }
    /// Frames lost on the way since the output was made: a consumer behind (every buffer
    /// still with one), the node's slot busy, or a frame of another size than the node's.
    open var droppedFrameCount: Int {
        let (node, before, mismatched) = locked { ($0.node, $0.droppedBefore, $0.mismatched) }
        return before + mismatched + Int(node?.droppedCount ?? 0)
    }
    /// Why the node could not be made or was lost, if it was; cleared by `startPublishing`.
    open var lastError: PublishingError? { locked { $0.lastError } }

    // MARK: Session graph

    /// Called by the frame router with each converted NV12 frame (capture thread): copied
    /// into the node without waiting, or, before the node exists, its making is queued.
    func publish(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        let (publishing, node, making, retryAfter, reading) = locked { ($0.publishing, $0.node, $0.making, $0.retryAfter, $0.hasConsumers) }
        guard publishing else { return }
        guard let node else {
            if !making, DispatchTime.now().uptimeNanoseconds >= retryAfter { makeNode(width: buffer.width, height: buffer.height) }
            return
        }
        guard node.width == buffer.width, node.height == buffer.height else {
            if reading { locked { $0.mismatched += 1 } }
            return
        }
        let time = metadata.presentationTime.isValid ? Int64(metadata.presentationTime.seconds * 1e9) : -1
        _ = node.push(buffer, sequence: metadata.sequence, presentationTime: time)
    }

    /// The session stopped: the node goes (on the output's queue, with no lock held).
    func sessionStopped() {
        queue.async { [weak self] in self?.removeNode() }
    }

    /// Closes the node, keeping its counts.
    private func removeNode() {
        let node = locked { state -> (any VirtualCameraNode)? in
            defer {
                state.node = nil
                state.hasConsumers = false
            }
            if let node = state.node {
                state.sentBefore += Int(node.sentCount)
                state.droppedBefore += Int(node.droppedCount)
            }
            return state.node
        }
        node?.close()
    }

    /// The node lost its daemon or was removed: it goes, and the next frame makes another
    /// after a second.
    private func nodeFailed(_ node: any VirtualCameraNode, reason: String) {
        let current = locked { state -> Bool in
            guard state.node === node else { return false }
            state.lastError = PublishingError(reason)
            state.retryAfter = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
            return true
        }
        if current { removeNode() }
    }

    private func makeNode(width: Int, height: Int) {
        let settings = locked { state -> State in
            state.making = true
            return state
        }
        queue.async { [weak self] in
            let made: Result<any VirtualCameraNode, PublishingError>
            do throws(PublishingError) {
                made = .success(
                    try VirtualCameraNodes.make(
                        remote: settings.remote, name: settings.name, description: settings.localizedName, width: width, height: height,
                        frameRate: settings.frameRate
                    ) { [weak self] event in self?.nodeEvent(event) })
            } catch {
                made = .failure(error)
            }
            guard let self else {
                if case .success(let node) = made { node.close() }
                return
            }
            let unused = locked { state -> (any VirtualCameraNode)? in
                state.making = false
                switch made {
                case .success(let node):
                    guard state.publishing else { return node }
                    state.node = node
                case .failure(let error):
                    state.lastError = error
                    state.retryAfter = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
                }
                return nil
            }
            unused?.close()
        }
    }

    /// What the node reported (the plug-in's loop thread): consumers, or the node lost.
    private func nodeEvent(_ event: VirtualCameraNodeEvent) {
        switch event {
        case .consumers(let reading):
            locked { $0.hasConsumers = reading }
        case .lost(let reason):
            // Not on the loop thread: closing the node waits for it.
            queue.async { [weak self] in
                guard let self, let node = locked({ $0.node }) else { return }
                nodeFailed(node, reason: reason)
            }
        }
    }
}
