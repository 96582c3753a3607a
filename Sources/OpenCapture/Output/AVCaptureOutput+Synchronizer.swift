import Foundation

/// How a data output hands its data to an `AVCaptureDataOutputSynchronizer` that took it over.
extension AVCaptureOutput {
    /// The synchronizer's hold, if one took the output over.
    var synchronizerTakeover: SynchronizerTakeover? { synchronizerTakeoverState.withLock { $0 } }

    /// A synchronizer takes the output over (or gives it back with nil): a video data
    /// output moves its delivery to the synchronizer's queue (or back to its delegate's).
    func setSynchronizerTakeover(_ takeover: SynchronizerTakeover?) {
        synchronizerTakeoverState.withLock { $0 = takeover }
        (self as? any SynchronizedDataSource)?.synchronizerTakeoverDidChange()
    }

    /// A synchronizer went away: the output gets its delegate back if that one held it.
    func releaseSynchronizer(_ owner: ObjectIdentifier) {
        guard synchronizerTakeoverState.withLock({ $0?.owner == owner }) else { return }
        setSynchronizerTakeover(nil)
    }

    /// Whether the output will deliver data for the synchronizer to wait for: an active
    /// connection, and for a metadata output some `metadataObjectTypes`. Depth data outputs
    /// never deliver here (no camera has depth).
    var producesSynchronizedData: Bool {
        guard let connection = connections.first, connection.isEnabled, connection.isActive else { return false }
        return (self as? any SynchronizedDataSource)?.deliversSynchronizedData ?? true
    }
}

extension AVCaptureOutput.DataDroppedReason {
    /// The reason a `kCMSampleBufferAttachmentKey_DroppedFrameReason` value names
    /// (`.discontinuity` for an unknown one; `.none` for none).
    init(attachment: String?) {
        switch attachment {
        case nil: self = .none
        case kCMSampleBufferDroppedFrameReason_FrameWasLate: self = .lateData
        case kCMSampleBufferDroppedFrameReason_OutOfBuffers: self = .outOfBuffers
        default: self = .discontinuity
        }
    }
}
