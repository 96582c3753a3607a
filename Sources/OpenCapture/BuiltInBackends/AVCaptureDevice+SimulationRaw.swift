import Foundation
import SimulatedCamera

extension AVCaptureDevice.Simulation {
    /// Whether each frame also carries the sensor's raw data (Linux addition): the RGGB
    /// Bayer mosaic of ADC codes, black level included, as the sensor model produced it
    /// (same photons, same noise as the processed frame), before the ISP. Read it with
    /// `rawMosaic(of:)`. Default false; applies from the next frame. It rides only on
    /// buffers delivered as rendered (no rotation, mirroring or pixel-format conversion).
    public var deliversRawMosaic: Bool {
        get { camera.deliversRawMosaic }
        nonmutating set { camera.deliversRawMosaic = newValue }
    }

    /// The raw mosaic behind a delivered frame, if the camera attached one.
    public static func rawMosaic(of buffer: CVPixelBuffer) -> RawMosaic? {
        CVBufferCopyAttachment(buffer, kOpenCaptureRawMosaicKey, nil) as? RawMosaic
    }
}
