import Foundation

extension AVCaptureSession {
    /// Posted on the main queue when a real microphone of the session overran: the capture
    /// thread fell a whole ALSA buffer behind (about 85 ms at 48 kHz), the device restarted,
    /// and a stretch of sound is missing, seen too as a gap in the sample buffers'
    /// timestamps. The session keeps running (Linux addition: iOS reports no such thing).
    /// userInfo: `audioOverrunDeviceKey` (the `AVCaptureDevice`) and
    /// `audioOverrunLostDurationKey` (a `CMTime`, from the end of the last buffer delivered
    /// to the restart).
    public static let audioOverrunNotification = Notification.Name("OpenCaptureAudioOverrunNotification")
    /// userInfo key of `audioOverrunNotification`: the microphone.
    public static let audioOverrunDeviceKey = "OpenCaptureAudioOverrunDevice"
    /// userInfo key of `audioOverrunNotification`: the sound lost, a `CMTime`.
    public static let audioOverrunLostDurationKey = "OpenCaptureAudioOverrunLostDuration"
}
