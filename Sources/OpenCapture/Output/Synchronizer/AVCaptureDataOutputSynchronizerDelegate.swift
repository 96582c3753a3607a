import Foundation

/// Receives an `AVCaptureDataOutputSynchronizer`'s collections on its delegate queue.
public protocol AVCaptureDataOutputSynchronizerDelegate: NSObjectProtocol {
    /// The data of the synchronizer's outputs for one moment: the first (primary) output's
    /// with whatever the others have for it, or, alone, data of another output that came
    /// between two of the primary's.
    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection)
}
