import Foundation

extension AVCaptureDevice {
    var nominalFocalLengthIn35mmFilmBacking: Float {
        guard let fieldOfView = formats.map(\.videoFieldOfView).max(), fieldOfView > 0, fieldOfView < 180 else { return 0 }
        return Float(18 / tan(Double(fieldOfView) * .pi / 360))
    }

    var isInUseByAnotherApplicationBacking: Bool {
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
