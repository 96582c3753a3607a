import Foundation

/// One data output's data in a synchronized collection (AVCaptureDataOutputSynchronizer.h):
/// the base of the concrete kinds below.
open class AVCaptureSynchronizedData: NSObject, @unchecked Sendable {
    private let time: CMTime

    init(timestamp: CMTime) {
        time = timestamp
        super.init()
    }

    /// When the data was captured, on the session's `synchronizationClock` (the host clock).
    open var timestamp: CMTime { time }
}

/// A video or audio data output's sample buffer in a synchronized collection.
open class AVCaptureSynchronizedSampleBufferData: AVCaptureSynchronizedData, @unchecked Sendable {
    private let buffer: CMSampleBuffer
    private let dropped: AVCaptureOutput.DataDroppedReason?

    init(sampleBuffer: CMSampleBuffer, droppedReason: AVCaptureOutput.DataDroppedReason?) {
        buffer = sampleBuffer
        dropped = droppedReason
        super.init(timestamp: sampleBuffer.presentationTimeStamp)
    }

    /// The sample buffer; for a dropped frame, a buffer without an image (its timing and
    /// the `DroppedFrameReason` attachment only).
    open var sampleBuffer: CMSampleBuffer { buffer }
    /// Whether the frame was dropped before it could be delivered (never for audio).
    open var sampleBufferWasDropped: Bool { dropped != nil }
    /// Why it was dropped; `.none` when it was not.
    open var droppedReason: AVCaptureOutput.DataDroppedReason { dropped ?? .none }
}

/// A metadata output's objects in a synchronized collection: those found in the frame of
/// the timestamp, `[]` when none were (never nil).
open class AVCaptureSynchronizedMetadataObjectData: AVCaptureSynchronizedData, @unchecked Sendable {
    private let objects: [AVMetadataObject]

    init(metadataObjects: [AVMetadataObject], timestamp: CMTime) {
        objects = metadataObjects
        super.init(timestamp: timestamp)
    }

    /// The metadata objects of the frame, possibly empty.
    open var metadataObjects: [AVMetadataObject] { objects }
}

/// A depth data output's depth map in a synchronized collection. No camera here delivers
/// depth (`supportedDepthDataFormats` is empty everywhere), so no collection holds one.
open class AVCaptureSynchronizedDepthData: AVCaptureSynchronizedData, @unchecked Sendable {
    private let depth: AVDepthData
    private let dropped: AVCaptureOutput.DataDroppedReason?

    init(depthData: AVDepthData, timestamp: CMTime, droppedReason: AVCaptureOutput.DataDroppedReason?) {
        depth = depthData
        dropped = droppedReason
        super.init(timestamp: timestamp)
    }

    /// The depth data.
    open var depthData: AVDepthData { depth }
    /// Whether the depth data was dropped.
    open var depthDataWasDropped: Bool { dropped != nil }
    /// Why it was dropped; `.none` when it was not.
    open var droppedReason: AVCaptureOutput.DataDroppedReason { dropped ?? .none }
}
