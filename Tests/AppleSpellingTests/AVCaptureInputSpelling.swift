// AVCaptureInput.h (iOS 18 SDK), spelled as iOS code spells it. AVCaptureScreenInput is
// macOS-only.
import AVFoundation
import CoreMedia
import Foundation
import Synchronization
import Testing

/// Touches every iOS declaration of AVCaptureInput.h; compiled, never called.
func spellAVCaptureInput(_ device: AVCaptureDevice) throws {
    let input: AVCaptureDeviceInput = try AVCaptureDeviceInput(device: device)
    let base: AVCaptureInput = input
    let ports: [AVCaptureInput.Port] = base.ports
    let port: AVCaptureInput.Port = ports[0]
    let owner: AVCaptureInput = port.input
    let mediaType: AVMediaType = port.mediaType
    let format: CMFormatDescription? = port.formatDescription
    port.isEnabled = false
    let enabled: Bool = port.isEnabled
    let clock: CMClock? = port.clock
    let sourceType: AVCaptureDevice.DeviceType? = port.sourceDeviceType
    let sourcePosition: AVCaptureDevice.Position = port.sourceDevicePosition
    let names: [NSNotification.Name] = [
        AVCaptureInput.Port.formatDescriptionDidChangeNotification, .AVCaptureInputPortFormatDescriptionDidChange,
    ]
    let camera: AVCaptureDevice = input.device
    input.unifiedAutoExposureDefaultsEnabled = true
    let unified: Bool = input.unifiedAutoExposureDefaultsEnabled
    let constituents: [AVCaptureInput.Port] = input.ports(
        for: .video, sourceDeviceType: .builtInWideAngleCamera, sourceDevicePosition: .back)
    let any: [AVCaptureInput.Port] = input.ports(for: nil, sourceDeviceType: nil, sourceDevicePosition: .unspecified)
    input.videoMinFrameDurationOverride = CMTime(value: 1, timescale: 30)
    let override: CMTime = input.videoMinFrameDurationOverride
    // iOS 18 and 26 members (audio and cinematic modes; answered as unsupported on Linux).
    let multichannel: Bool = input.isMultichannelAudioModeSupported(.stereo)
    input.multichannelAudioMode = .none
    let modes: [AVCaptureMultichannelAudioMode] = [input.multichannelAudioMode, .stereo, .firstOrderAmbisonics]
    let wind: (Bool, Bool) = (input.isWindNoiseRemovalSupported, input.isWindNoiseRemovalEnabled)
    input.isWindNoiseRemovalEnabled = false
    let cinematic: (Bool, Bool) = (input.isCinematicVideoCaptureSupported, input.isCinematicVideoCaptureEnabled)
    input.isCinematicVideoCaptureEnabled = false
    let audioZoom: (Bool, Bool) = (input.isAudioZoomSupported, input.isAudioZoomEnabled)
    input.isAudioZoomEnabled = false
    _ = (owner, mediaType, format, enabled, clock, sourceType, sourcePosition, names, camera, unified, constituents, any)
    _ = (override, multichannel, modes, wind, cinematic, audioZoom)
}

@Suite("AVCaptureInput spelling", .serialized)
struct AVCaptureInputSpellingTests {
    @Test("the port describes the camera: video, its type and position, the active format")
    func portDescribesTheCamera() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput(device: device)
        let port = try #require(input.ports.first)
        // The video port, then the metadata-object port a metadata output connects to.
        #expect(input.ports.map(\.mediaType) == [.video, .metadataObject])
        #expect(port.input === input)
        #expect(port.mediaType == .video)
        #expect(port.sourceDeviceType == device.deviceType)
        #expect(port.sourceDevicePosition == device.position)
        #expect(port.formatDescription?.dimensions == device.activeFormat.formatDescription.dimensions)
        #expect(port.isEnabled)
        #expect(input.ports(for: .audio, sourceDeviceType: nil, sourceDevicePosition: .unspecified).isEmpty)
        #expect(input.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: .front).isEmpty)
        #expect(input.ports(for: .video, sourceDeviceType: device.deviceType, sourceDevicePosition: .back) == [port])
    }

    @Test("a new activeFormat posts formatDescriptionDidChangeNotification for the input's port")
    func formatChangeNotifies() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput(device: device)
        let port = try #require(input.ports.first)
        let original = device.activeFormat
        let other = try #require(device.formats.first { $0.formatDescription.dimensions != original.formatDescription.dimensions })
        let posted = Mutex<[CMVideoDimensions]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: AVCaptureInput.Port.formatDescriptionDidChangeNotification, object: port, queue: nil
        ) { notification in
            guard let changed = notification.object as? AVCaptureInput.Port, let dims = changed.formatDescription?.dimensions else { return }
            posted.withLock { $0.append(dims) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try device.lockForConfiguration()
        device.activeFormat = other
        device.activeFormat = original
        device.unlockForConfiguration()
        let deadline = Date().addingTimeInterval(5)
        while posted.withLock({ $0.count < 2 }) && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
        #expect(posted.withLock { $0.count } == 2)
    }

    @Test("videoMinFrameDurationOverride resets on addInput and caps the frame rate while running")
    func frameDurationOverrideCapsTheRate() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        let input = try AVCaptureDeviceInput(device: device)
        #expect(!input.videoMinFrameDurationOverride.isValid)
        input.videoMinFrameDurationOverride = CMTime(value: 1, timescale: 10)
        session.addInput(input)
        #expect(!input.videoMinFrameDurationOverride.isValid)
        let fifteenth = CMTime(value: 1, timescale: 15)
        input.videoMinFrameDurationOverride = fifteenth
        #expect(input.videoMinFrameDurationOverride == fifteenth)
        let output = AVCaptureVideoDataOutput()
        let sink = TimeSink()
        output.setSampleBufferDelegate(sink, queue: DispatchQueue(label: "input-spelling"))
        session.addOutput(output)
        session.startRunning()
        let deadline = Date().addingTimeInterval(10)
        while sink.times.withLock({ $0.count < 6 }) && Date() < deadline { usleep(1000) }
        session.stopRunning()
        let seen = sink.times.withLock { $0 }
        try #require(seen.count >= 6)
        // The device still says 1/30; the stream runs at the override's 15 fps.
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        for (previous, next) in zip(seen, seen.dropFirst()) {
            #expect(abs((next - previous - fifteenth).seconds) <= 1e-6)
        }
    }
}

/// Records presentation times of delivered frames.
private final class TimeSink: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let times = Mutex<[CMTime]>([])
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        times.withLock { $0.append(time) }
    }
}

/// AVCaptureMetadataInput and the timed metadata it takes; compiled, never called.
func spellAVCaptureMetadataInput(_ session: AVCaptureSession, _ movie: AVCaptureMovieFileOutput, _ items: [AVMetadataItem]) throws {
    let group: AVTimedMetadataGroup = AVTimedMetadataGroup(items: items, timeRange: CMTimeRange(start: .zero, duration: .invalid))
    let groupItems: [AVMetadataItem] = group.items
    let range: CMTimeRange = group.timeRange
    guard let description: CMMetadataFormatDescription = group.copyFormatDescription() else { return }
    let input: AVCaptureMetadataInput = AVCaptureMetadataInput(formatDescription: description, clock: CMClockGetHostTimeClock())
    if session.canAddInput(input) { session.addInputWithNoConnections(input) }
    let connection = AVCaptureConnection(inputPorts: input.ports, output: movie)
    if session.canAddConnection(connection) { session.addConnection(connection) }
    try input.append(group)
    let type: CMMetadataFormatType = kCMMetadataFormatType_Boxed
    // The orientation track (AVCaptureFileOutput.h, iOS 15).
    if let video = movie.connection(with: .video), !movie.recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for: video) {
        movie.setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack(true, for: video)
    }
    let orientation: AVMetadataIdentifier = .quickTimeMetadataVideoOrientation
    _ = (groupItems, range, type, orientation)
}
