import Foundation
import PipeWireCamera

/// A node an `AVCaptureVirtualCameraOutput` publishes frames through (PipeWire's, below).
protocol VirtualCameraNode: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// Hands one NV12 frame over without waiting; whether it was taken.
    func push(_ buffer: CVPixelBuffer, sequence: Int64, presentationTime: Int64) -> Bool
    var sentCount: UInt64 { get }
    var droppedCount: UInt64 { get }
    func close()
}

extension PipeWireVirtualCamera: VirtualCameraNode {}

/// Makes virtual camera nodes: the PipeWire plug-in's, on the daemon at `remote` (nil: the
/// user's).
enum VirtualCameraNodes {
    /// Why no node can be published now (no plug-in, no daemon), or nil.
    static func unavailability(remote: String?) -> String? {
        if case .failure(let error) = PipeWireConnection.plugin() { return error.description }
        guard let socket = remote ?? PipeWireConnection.defaultSocket, FileManager.default.fileExists(atPath: socket) else {
            return "no PipeWire daemon is running (install pipewire and start it, or log in to a desktop that runs it)"
        }
        return nil
    }

    static func make(
        remote: String?, name: String, description: String, width: Int, height: Int, frameRate: Int,
        consumers: @escaping @Sendable (Bool) -> Void
    ) throws -> any VirtualCameraNode {
        try PipeWireVirtualCamera(
            remote: remote, name: name, description: description, width: width, height: height, frameRate: frameRate, states: consumers)
    }
}
