import Foundation
import MediaIO
import OpenCapture

/// `capture frames --pixel-format raw`: the simulated sensor's RGGB mosaic (ADC codes,
/// black level included) written as 16-bit grey Y4M, one mosaic per frame.
enum RawCapture {
    /// Refuses what raw capture cannot do.
    static func check(_ args: Arguments, device: AVCaptureDevice) throws {
        guard device.simulation != nil else {
            throw UsageError("--pixel-format raw needs a simulated camera; \(device.uniqueID) is real")
        }
        if let rotation = args.value("--rotation"), rotation != "0" {
            throw UsageError("--pixel-format raw is the sensor's own layout; it cannot be rotated")
        }
        if args.has("--mirror") { throw UsageError("--pixel-format raw is the sensor's own layout; it cannot be mirrored") }
    }

    /// The mosaic behind `image`, or a failure naming why there is none.
    static func mosaic(of image: CVPixelBuffer) throws -> RawMosaic {
        guard let mosaic = AVCaptureDevice.Simulation.rawMosaic(of: image) else {
            throw CommandFailure(message: "the camera delivered a frame without its raw mosaic")
        }
        return mosaic
    }
}
