/// Who a Motion JPEG stream tells the JPEG of the frame it delivers next, copied out of the
/// driver's buffer before it goes back, so a still of that frame can be the camera's own
/// JPEG (`StillCapture.deviceJPEG`): the session's stills (`V4L2StillTaker`) and a larger
/// still's own stream (`V4L2SingleFrameSink`).
///
/// Threads: the stream's capture thread.
protocol V4L2JPEGNoting: AnyObject, Sendable {
    /// Whether the next frame may become a still; the stream copies nothing otherwise.
    var wantsFrames: Bool { get }
    /// The JPEG of frame `sequence`, delivered to the sink right after.
    func noteJPEG(_ bytes: [UInt8], sequence: Int64)
}

extension V4L2StillTaker: V4L2JPEGNoting {}
