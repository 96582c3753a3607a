// AVCaptureAudioDataOutput.h, AVCaptureSession.h's AVCaptureAudioChannel and the
// microphone parts of AVCaptureDevice.h, spelled as iOS code spells them.
import AVFoundation
import Testing

final class SpellingAudioDelegate: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate {
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}

/// Touches the audio output declarations; compiled, never called.
func spellAVCaptureAudioDataOutput(_ connection: AVCaptureConnection) {
    let output = AVCaptureAudioDataOutput()
    let delegate = SpellingAudioDelegate()
    output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "audio"))
    let current: (any AVCaptureAudioDataOutputSampleBufferDelegate)? = output.sampleBufferDelegate
    let queue: DispatchQueue? = output.sampleBufferCallbackQueue
    let settings: [String: Any]? = output.recommendedAudioSettingsForAssetWriter(writingTo: .mov)
    let channels: [AVCaptureAudioChannel] = connection.audioChannels
    let levels: (Float, Float) = (channels[0].averagePowerLevel, channels[0].peakHoldLevel)
    let microphone: AVCaptureDevice? = AVCaptureDevice.default(for: .audio)
    let found: [AVCaptureDevice] = AVCaptureDevice.DiscoverySession(
        deviceTypes: [.microphone], mediaType: .audio, position: .unspecified
    ).devices
    let keys: [String] = [
        AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVEncoderBitRateKey, AVEncoderBitRatePerChannelKey,
        AVEncoderBitRateStrategyKey, AVLinearPCMBitDepthKey, AVLinearPCMIsFloatKey, AVLinearPCMIsBigEndianKey,
        AVLinearPCMIsNonInterleaved, AVChannelLayoutKey, AVAudioBitRateStrategy_Variable, AVAudioBitRateStrategy_Constant,
    ]
    _ = (current, queue, settings, levels, microphone, found, keys)
}

/// The pre-iOS 17 microphone type; compiled, never called.
@available(*, deprecated)
func spellDeprecatedMicrophone() -> AVCaptureDevice? {
    AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInMicrophone], mediaType: .audio, position: .unspecified).devices.first
}

@Suite("AVCaptureAudioDataOutput spelling")
struct AVCaptureAudioDataOutputSpellingTests {
    @Test("AVCam's microphone setup: the default audio device goes into the session beside the camera")
    func avcamMicrophone() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        let videoDevice = try #require(AVCaptureDevice.default(for: .video))
        let videoInput = try AVCaptureDeviceInput(device: videoDevice)
        if session.canAddInput(videoInput) { session.addInput(videoInput) }
        // AVCam force-unwraps this; OpenCapture used to trap here.
        let audioDevice = AVCaptureDevice.default(for: .audio)!
        let audioInput = try AVCaptureDeviceInput(device: audioDevice)
        #expect(session.canAddInput(audioInput))
        session.addInput(audioInput)
        let audioOutput = AVCaptureAudioDataOutput()
        #expect(session.canAddOutput(audioOutput))
        session.addOutput(audioOutput)
        session.commitConfiguration()
        #expect(session.inputs.count == 2)
        #expect(audioOutput.connection(with: .audio)?.audioChannels.count == 1)
        #expect(audioDevice.localizedName == "iPhone Microphone" && audioDevice.deviceType == .microphone)
    }
}
