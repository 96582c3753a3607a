import Foundation

extension AVCaptureDevice {
    /// The lens's nominal focal length as a 35 mm film equivalent, in millimetres (iOS 26):
    /// the focal length that gives a 36 mm wide frame the horizontal field of view of the
    /// camera's widest format (its full sensor), the figure photos carry as EXIF
    /// `FocalLenIn35mmFilm`. 0 when no format knows its field of view (V4L2 cameras).
    public var nominalFocalLengthIn35mmFilm: Float {
        guard let fieldOfView = formats.map(\.videoFieldOfView).max(), fieldOfView > 0, fieldOfView < 180 else { return 0 }
        return Float(18 / tan(Double(fieldOfView) * .pi / 360))
    }

    /// Whether another program holds the camera now (macOS and Mac Catalyst on Apple
    /// platforms): asked of the driver at each read, since a V4L2 node shows it as a busy
    /// buffer queue. False for simulated cameras, for a camera this process streams from,
    /// and for microphones. Reads only; other programs' use is not watched, so the
    /// property is not key-value observable here.
    public var isInUseByAnotherApplication: Bool {
        guard isConnected else { return false }
        do {
            try backend.checkAvailability()
            return false
        } catch .deviceInUse {
            return true
        } catch {
            return false
        }
    }
}
