import CFaceRuntime
import Foundation

/// OpenCV's face detection for a metadata output, through the plugin CFaceRuntime loads
/// (libOpenCaptureFaceDetector.so): Haar cascades, frontal on the picture and on copies
/// turned by ±30° (roll), profile on it and its mirror image (yaw). See ARCHITECTURE.md
/// "Metadata".
///
/// Threads: one reader is used on one queue at a time (its scanner's).
final class FaceReader: @unchecked Sendable {
    /// Whether `.face` can be detected: the plugin is beside the program and opencv-data's
    /// cascades are installed. Looks for files only; OpenCV is loaded when faces are first read.
    static let isAvailable: Bool = oc_faces_available() != 0

    /// Pixels across the picture is scaled down to before detection (the cascades' 20-pixel
    /// window then finds faces from about 3 % of the frame's width up).
    static let workingWidth: Int32 = 640

    /// One face: its square's centre and side in the pixels read, roll and yaw in degrees.
    struct Face: Equatable {
        var center: CGPoint
        var size: Double
        var roll: Int
        var yaw: Int
    }

    private var session: OpaquePointer?
    private var failed = false

    deinit { oc_faces_close(session) }

    /// The faces in an image; none if the detector could not be loaded (said once on stderr).
    func read(_ pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, layout: BarcodeReader.Layout) -> [Face] {
        guard !failed, width > 0, height > 0 else { return [] }
        if session == nil {
            session = oc_faces_open()
            if session == nil {
                failed = true
                FileHandle.standardError.write(Data("OpenCapture: no face detection: \(String(cString: oc_faces_error()))\n".utf8))
                return []
            }
        }
        let capacity = 32
        var found = [OCFoundFace](repeating: OCFoundFace(), count: capacity)
        let count = found.withUnsafeMutableBufferPointer { faces in
            oc_faces_detect(
                session, pixels.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bytesPerRow), layout.rawValue,
                Self.workingWidth, faces.baseAddress, Int32(capacity))
        }
        guard count > 0 else { return [] }
        return found.prefix(min(Int(count), capacity)).map {
            Face(center: CGPoint(x: $0.centerX, y: $0.centerY), size: $0.size, roll: Int($0.roll), yaw: Int($0.yaw))
        }
    }
}
