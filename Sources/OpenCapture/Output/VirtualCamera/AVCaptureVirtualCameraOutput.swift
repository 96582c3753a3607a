import Foundation

/// Publishes the session's camera as a camera of the desktop (Linux addition; iOS has no such
/// output): a PipeWire node with `media.class=Video/Source` and `media.role=Camera` that a
/// browser, OBS or a video-call app opens like a webcam, with no kernel module. Any camera
/// works: simulated, a file deck, V4L2, libcamera.
///
/// ```swift
/// let virtualCamera = AVCaptureVirtualCameraOutput()
/// virtualCamera.localizedName = "Studio Camera"
/// session.addOutput(virtualCamera)
/// try virtualCamera.startPublishing()
/// ```
///
/// The node appears at the first frame after `startPublishing()`, at that frame's size (the
/// camera's format, or `videoDimensions` when smaller with the same aspect ratio), offering
/// NV12, I420 and YUY2 at `frameRate` frames per second; each consumer negotiates one. Needs a
/// running PipeWire daemon and the PipeWire plug-in (the `OpenCapturePipeWire` product
/// beside the program); `startPublishing()` throws, naming which is missing.
///
/// **Never in the way of capture.** Frames are converted by the session's router into the
/// output's pools and copied into the node's one-frame slot without waiting; a frame that
/// finds the node busy or its consumers behind is dropped and counted
/// (`droppedFrameCount`). Consumers may come and go at any time (`hasConsumers`); while none
/// reads, frames are neither sent nor counted as dropped.
///
/// **Threads.** Every property may be read from any thread. The node is made on the output's
/// own queue ("OpenCapture.virtualCamera"), never on the capture thread.
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
        var publishing = false
        var making = false
        var node: (any VirtualCameraNode)?
        var hasConsumers = false
        /// Frames of another size than the node's.
        var mismatched = 0
        var lastError: PublishingError?
        var remote: String?
    }

    private let state = NSLock()
    private var values = State()
    private let queue = DispatchQueue(label: "OpenCapture.virtualCamera")
    /// The pools converted frames come from, kept across runs (see `OutputPools`).
    let pools = OutputPools()
    /// The daemon's socket; nil for the user's (PIPEWIRE_REMOTE or the runtime directory's).
    package var remote: String? {
        get { locked { $0.remote } }
        set { locked { $0.remote = newValue } }
    }

    public override init() { super.init() }

    /// An output let go while publishing removes its node.
    deinit { stopPublishing() }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        state.lock()
        defer { state.unlock() }
        return body(&values)
    }

    // MARK: Settings (applied when the node is made)

    /// The node's name (`node.name`), which `pw-link` and `target.object` use; default
    /// "opencapture-camera".
    open var name: String {
        get { locked { $0.name } }
        set { locked { $0.name = newValue.isEmpty ? "opencapture-camera" : newValue } }
    }

    /// The name apps show in their camera menus (`node.description`); default "OpenCapture Camera".
    open var localizedName: String {
        get { locked { $0.localizedName } }
        set { locked { $0.localizedName = newValue.isEmpty ? "OpenCapture Camera" : newValue } }
    }

    /// The frame rate the node announces (default 30, at least 1).
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

    // MARK: Publishing

    /// Starts publishing: the node appears at the next frame.
    ///
    /// - Throws: `PublishingError` when the PipeWire plug-in is not beside the program, its
    ///   libpipewire is missing, or no PipeWire daemon runs.
    open func startPublishing() throws(PublishingError) {
        if let reason = VirtualCameraNodes.unavailability(remote: remote) { throw PublishingError(reason) }
        locked { $0.publishing = true; $0.lastError = nil }
    }

    /// Removes the node (its consumers see the camera go) and stops publishing.
    open func stopPublishing() {
        let node = locked { state -> (any VirtualCameraNode)? in
            state.publishing = false
            state.hasConsumers = false
            defer { state.node = nil }
            return state.node
        }
        node?.close()
    }

    /// Whether the output publishes (from `startPublishing` to `stopPublishing`).
    open var isPublishing: Bool { locked { $0.publishing } }
    /// Whether a consumer reads the node now.
    open var hasConsumers: Bool { locked { $0.hasConsumers } }
    /// The published size, once the node is made.
    open var publishedDimensions: CMVideoDimensions? {
        locked { $0.node.map { CMVideoDimensions(width: Int32($0.width), height: Int32($0.height)) } }
    }
    /// Frames sent to consumers since the node was made.
    open var publishedFrameCount: Int { Int(locked { $0.node }?.sentCount ?? 0) }
    /// Frames lost on the way: consumers behind, the node busy, or a frame of another size
    /// than the node's (the camera's format changed).
    open var droppedFrameCount: Int {
        let (node, mismatched) = locked { ($0.node, $0.mismatched) }
        return Int(node?.droppedCount ?? 0) + mismatched
    }
    /// Why the node could not be made, if it could not.
    open var lastError: PublishingError? { locked { $0.lastError } }

    // MARK: Session graph

    /// Called by the frame router with each converted frame (capture thread): copied into
    /// the node without waiting, or, before the node exists, the node's making is queued.
    func publish(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        let (publishing, node, making) = locked { ($0.publishing, $0.node, $0.making) }
        guard publishing else { return }
        guard let node else {
            if !making, lastError == nil { makeNode(width: buffer.width, height: buffer.height) }
            return
        }
        guard node.width == buffer.width, node.height == buffer.height else {
            locked { $0.mismatched += 1 }
            return
        }
        let time = metadata.presentationTime.isValid ? Int64(metadata.presentationTime.seconds * 1e9) : 0
        _ = node.push(buffer, sequence: metadata.sequence, presentationTime: time)
    }

    private func makeNode(width: Int, height: Int) {
        let settings = locked { state -> State in
            state.making = true
            return state
        }
        let remote = self.remote
        queue.async { [weak self] in
            let made: Result<any VirtualCameraNode, PublishingError>
            do {
                made = .success(
                    try VirtualCameraNodes.make(
                        remote: remote, name: settings.name, description: settings.localizedName, width: width, height: height,
                        frameRate: settings.frameRate
                    ) { [weak self] consumers in self?.locked { $0.hasConsumers = consumers } })
            } catch {
                made = .failure(PublishingError("\(error)"))
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
                }
                return nil
            }
            unused?.close()
        }
    }
}
