import Foundation
import PipeWireCamera

/// A node an `AVCaptureVirtualCameraOutput` publishes frames through (PipeWire's, below).
protocol VirtualCameraNode: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The node's id in the graph.
    var nodeID: UInt32 { get }
    /// Hands one NV12 frame over without waiting; whether it was taken.
    func push(_ buffer: CVPixelBuffer, sequence: Int64, presentationTime: Int64) -> Bool
    var sentCount: UInt64 { get }
    var droppedCount: UInt64 { get }
    /// Removes the node; returns once it is gone.
    func close()
}

/// What a node reports, on the plug-in's loop thread.
enum VirtualCameraNodeEvent: Sendable {
    /// A consumer started reading (true), or the last one left (false).
    case consumers(Bool)
    /// The node is gone: its daemon stopped, or it was removed, or PipeWire failed.
    case lost(String)
}

extension PipeWireVirtualCamera: VirtualCameraNode {}

/// Makes virtual camera nodes: the PipeWire plug-in's, on the daemon at `remote` (nil: the
/// user's).
enum VirtualCameraNodes {
    /// Why no node can be published now (no plug-in, no daemon), or nil.
    static func unavailability(remote: String?) -> String? {
        if case .failure(let error) = PipeWireConnection.plugin() { return error.description }
        guard let socket = PipeWireVirtualCamera.socket(for: remote), FileManager.default.fileExists(atPath: socket) else {
            return "no PipeWire daemon is running (no socket at \(PipeWireVirtualCamera.socket(for: remote) ?? "$XDG_RUNTIME_DIR/pipewire-0"); install pipewire and start it, or log in to a desktop that runs it)"
        }
        return nil
    }

    static func make(
        remote: String?, name: String, description: String, width: Int, height: Int, frameRate: Int,
        events: @escaping @Sendable (VirtualCameraNodeEvent) -> Void
    ) throws(AVCaptureVirtualCameraOutput.PublishingError) -> any VirtualCameraNode {
        do {
            return try PipeWireVirtualCamera(
                remote: remote, name: name, description: description, width: width, height: height, frameRate: frameRate
            ) { event in
                switch event {
                case .streaming: events(.consumers(true))
                case .paused: events(.consumers(false))
                case .lost(let reason): events(.lost(reason))
                }
            }
        } catch {
            throw AVCaptureVirtualCameraOutput.PublishingError(error.description)
        }
    }
}
