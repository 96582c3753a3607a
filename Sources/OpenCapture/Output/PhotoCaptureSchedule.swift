import Foundation

/// The captures of a photo output (the scheduling part of its state): settings IDs used,
/// captures in flight, those still exposing, those processing, those waiting for their turn
/// (in capture order), and the processing times measured. The output keeps it under a lock
/// of its own (`AVCapturePhotoOutput.schedule`); its changes go through
/// `AVCapturePhotoOutput.changeReadiness`, which announces what they do to
/// `captureReadiness` (`PhotoOutputReadiness`).
struct PhotoCaptureSchedule {
    /// What processing times are measured by: the quality prioritization's raw value and
    /// the codec (nil: uncompressed).
    struct ProcessingKind: Hashable {
        let quality: Int
        let codec: String?
    }

    /// Settings IDs used by captures: a settings object takes one photo.
    private var usedIDs: Set<Int64> = []
    /// Captures from `capturePhoto` to their last callback, and those of them not yet past
    /// `didCapturePhotoFor` (the sensor still exposing), by settings ID.
    private(set) var inFlight = 0
    private var capturing: Set<Int64> = []
    /// Captures whose photos are not delivered yet, and (without responsive capture) those
    /// waiting for them to start, in capture order.
    private(set) var processing: Set<Int64> = []
    private var waiting: [PhotoCapture] = []
    /// Measured processing times (didCapture to the last photo), newest last.
    private var processingTimes: [ProcessingKind: [Double]] = [:]

    /// Marks `uniqueID` used; false when a capture used it before.
    mutating func use(_ uniqueID: Int64) -> Bool { usedIDs.insert(uniqueID).inserted }

    /// A capture is requested; true when it must wait for the one processing now (without
    /// responsive capture), in which case it is queued to run after it.
    mutating func begin(_ capture: PhotoCapture, uniqueID: Int64, responsive: Bool) -> Bool {
        inFlight += 1
        capturing.insert(uniqueID)
        let waits = !responsive && !processing.isEmpty
        processing.insert(uniqueID)
        if waits { waiting.append(capture) }
        return waits
    }

    /// The sensor part of a capture is over.
    mutating func exposed(_ uniqueID: Int64) { capturing.remove(uniqueID) }

    /// A capture's photos are delivered; returns the capture waiting next, if any.
    mutating func processed(_ uniqueID: Int64) -> PhotoCapture? {
        processing.remove(uniqueID)
        return waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// A capture's last callback ran.
    mutating func finished(_ uniqueID: Int64) {
        inFlight -= 1
        capturing.remove(uniqueID)
    }

    /// The readiness the captures allow (the session's part is the output's). Live Photo
    /// movies still being recorded or written do not hold the next photo up.
    func readiness(responsive: Bool) -> AVCapturePhotoOutput.CaptureReadiness {
        if !capturing.isEmpty { return .notReadyWaitingForCapture }
        if processing.count >= (responsive ? AVCapturePhotoOutput.responsiveProcessingLimit : 1) { return .notReadyWaitingForProcessing }
        return .ready
    }

    /// The last eight processing times measured for `kind`, in seconds.
    func times(of kind: ProcessingKind) -> [Double] { processingTimes[kind] ?? [] }

    /// Remembers a processing time of `kind`, keeping the last eight.
    mutating func record(_ seconds: Double, of kind: ProcessingKind) {
        var times = processingTimes[kind] ?? []
        times.append(seconds)
        if times.count > 8 { times.removeFirst(times.count - 8) }
        processingTimes[kind] = times
    }
}
