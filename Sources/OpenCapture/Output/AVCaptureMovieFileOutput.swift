import Foundation
import MediaIO
import Synchronization

/// Records H.264 video in fragmented MP4 files (FFmpeg with libx264), with an AAC track
/// (FFmpeg's native encoder) when the session has a microphone.
///
/// As on iOS, the output takes two connections: the camera's video port and the
/// microphone's audio port (`connection(with: .audio)`, its `audioChannels` metered). Both
/// tracks keep their host-clock times (the session's `synchronizationClock`) from the first
/// frame on, so sound and picture stay in sync; the sound is encoded at the microphone's
/// rate and channel count, 64 kbit/s per channel unless `setOutputSettings(_:for:)` says.
///
/// Files are fragmented every `movieFragmentInterval`, so a process killed mid-recording
/// leaves a file playable up to its last fragment. The connection's rotation is written
/// into the track's display matrix rather than into the pixels, as on iOS; its mirroring
/// flips the pixels (the device does it when every connection mirrors, else the recorder).
///
/// Threads: the recording delegate is called on the output's serial recording queue
/// ("OpenCapture.movie"), where the file is written; frames are never waited for under a lock.
open class AVCaptureMovieFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    let recorder = MovieRecorder()
    /// The constituent switching to use while recording (iOS 15), set through the
    /// `...ForRecording` members.
    let recordingSwitching = Mutex(RecordingSwitching())

    public override init() {
        super.init()
        recorder.output = self
    }

    /// Video, audio, and the timed metadata of `AVCaptureMetadataInput`s (one track each).
    override var acceptedMediaTypes: [AVMediaType] { [.video, .audio, .metadata] }
    /// The orientation-track choice of each video connection and the last value recorded.
    let orientationTracks = Mutex(OrientationTracks())

    /// One video and one audio connection.
    override var takesOneConnectionPerMediaType: Bool { true }

    /// Movie-level metadata written into each file recorded from now on (default nil): the
    /// items with a common key (title, description, creation date, location, make, model,
    /// software, copyrights, artist, author) become the movie's tags, written as QuickTime
    /// metadata keys ('mdta'; a location also as 'loci', a creation date as the 'mvhd'
    /// creation time); other items are left out. Read when a recording starts, so a change
    /// reaches the next file. As on iOS, every file also carries
    /// com.apple.quicktime.make/model/software/creationdate (the capturing device's
    /// `manufacturer` and `modelID`, "OpenCapture", the start time) unless these items
    /// set them (see `MovieFileTags`).
    open var metadata: [AVMetadataItem]? {
        get { movieMetadata.withLock { $0.value } }
        set {
            let tags = (newValue ?? []).compactMap(\.movieTag)
            movieMetadata.withLock { $0 = UncheckedSendable(newValue) }
            recorder.settings.withLock { $0.metadata = tags }
        }
    }
    private let movieMetadata = Mutex(UncheckedSendable<[AVMetadataItem]?>(nil))

    /// How often a fragment is written (default 10 s); `.invalid` writes one fragment at the end.
    open var movieFragmentInterval: CMTime {
        get { recorder.settings.withLock { $0.fragmentInterval } }
        set { recorder.settings.withLock { $0.fragmentInterval = newValue } }
    }

    /// Codecs the output can record: H.264, and HEVC where FFmpeg has libx265 (Debian's has).
    open var availableVideoCodecTypes: [AVVideoCodecType] { MovieWriter.canEncodeHEVC ? [.hevc, .h264] : [.h264] }

    /// Sets the codec and compression for a connection: `AVVideoCodecKey` (`.h264`, or
    /// `.hevc` when available; HEVC movies are tagged 'hvc1' as Apple's players want) and
    /// `AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: Int]`; other keys raise,
    /// as on iOS. It applies from the next recording.
    open func setOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) {
        enforce {
            if connection.inputPorts.contains(where: { $0.mediaType == .audio }) {
                try setAudioOutputSettings(outputSettings, for: connection)
                return
            }
            var bitRate: Int?
            var hevc = false
            for (key, value) in outputSettings ?? [:] {
                switch key {
                case AVVideoCodecKey:
                    let codec = (value as? AVVideoCodecType)?.rawValue ?? value as? String
                    guard let codec, availableVideoCodecTypes.map(\.rawValue).contains(codec) else {
                        throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureMovieFileOutput", "setOutputSettings:forConnection:", "Unsupported codec \(codec ?? "?") - use availableVideoCodecTypes"))
                    }
                    hevc = codec == AVVideoCodecType.hevc.rawValue
                case AVVideoCompressionPropertiesKey:
                    bitRate = (value as? [String: Any])?[AVVideoAverageBitRateKey].flatMap(integer)
                default:
                    throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureMovieFileOutput", "setOutputSettings:forConnection:", "Unsupported output settings key \(key)"))
                }
            }
            recorder.settings.withLock {
                $0.bitRate = bitRate
                $0.hevc = hevc
            }
        }
    }

    /// The settings recordings use: the codec, and the average bit rate if one was set.
    open func outputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        if connection.inputPorts.contains(where: { $0.mediaType == .audio }) { return audioOutputSettings(for: connection) }
        let (hevc, bitRate) = recorder.settings.withLock { ($0.hevc, $0.bitRate) }
        var result: [String: Any] = [AVVideoCodecKey: hevc ? AVVideoCodecType.hevc : AVVideoCodecType.h264]
        if let bitRate { result[AVVideoCompressionPropertiesKey] = [AVVideoAverageBitRateKey: bitRate] }
        return result
    }

    open override var outputFileURL: URL? { recorder.status.withLock { $0.url } }
    open override var isRecording: Bool { recorder.status.withLock { $0.isRecording } }
    open override var isRecordingPaused: Bool { recorder.status.withLock { $0.isPaused } }
    open override var recordedDuration: CMTime { recorder.status.withLock { $0.duration } }
    open override var recordedFileSize: Int64 { recorder.status.withLock { $0.fileSize } }
    /// Frames written to the current (or last) recording (Linux addition).
    public var recordedFrameCount: Int { recorder.status.withLock { $0.framesWritten } }
    /// Frames left out of the current (or last) recording: the encoder was behind, or the
    /// source skipped them (Linux addition).
    public var droppedFrameCount: Int { recorder.status.withLock { $0.droppedFrames } }

    /// Starts recording. A URL that is not a file URL raises; an existing file ends the
    /// request at once with `AVError.fileAlreadyExists`; calling it while recording
    /// finishes the current file and starts the new one.
    open override func startRecording(to outputFileURL: URL, recordingDelegate delegate: any AVCaptureFileOutputRecordingDelegate) {
        enforce {
            guard outputFileURL.isFileURL else {
                throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureMovieFileOutput", "startRecordingToOutputFileURL:recordingDelegate:", "Cannot record to URL \(outputFileURL) because it is not a file URL."))
            }
            guard let connection = connection(with: .video) ?? connection(with: .audio), connection.isEnabled, connection.isActive else {
                throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureMovieFileOutput", "startRecordingToOutputFileURL:recordingDelegate:", "No active/enabled connections"))
            }
        }
        let video = connection(with: .video).map(\.isEnabled) ?? false
        let audio = connection(with: .audio).flatMap { $0.isEnabled ? movieAudioSettings(for: $0) : nil }
        let tracks = metadataTracksForRecording(hasVideo: video)
        // The file's make and model: the camera's, or the microphone's in a sound-only recording.
        let source = connection(with: .video)?.device ?? connection(with: .audio)?.device
        recorder.start(
            url: outputFileURL, delegate: delegate, limits: limits, rotation: connection(with: .video)?.videoRotationAngle ?? 0,
            audio: audio, hasVideo: video, metadataTracks: tracks, make: source?.manufacturer, model: source?.modelID)
        applyRecordingSwitching()  // after start: isRecording is now true
    }

    open override func stopRecording() { recorder.stop(error: nil) }
    open override func pauseRecording() { recorder.setPaused(true) }
    open override func resumeRecording() { recorder.setPaused(false) }

    var limits: MovieRecorder.Limits {
        MovieRecorder.Limits(duration: maxRecordedDuration, fileSize: maxRecordedFileSize, minFreeDiskSpace: minFreeDiskSpaceLimit)
    }

    /// Called by the frame router with each frame while the session runs.
    func consume(_ buffer: CVPixelBuffer, metadata: FrameMetadata, mirrored: Bool) {
        noteOrientation(at: metadata.presentationTime)
        recorder.consume(buffer, metadata: metadata, mirrored: mirrored)
    }

    /// Called by the audio router with each buffer of the session's microphone.
    func consumeAudio(_ sampleBuffer: CMSampleBuffer) {
        recorder.consumeAudio(sampleBuffer)
    }

    /// The session stopped: a recording in progress ends with its file complete.
    func sessionDidStop() {
        if isRecording {
            recorder.stop(error: AVError(.sessionNotRunning, "The session stopped running.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: true]))
        }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureMovieFileOutput+ConstituentSwitching.swift)

    /// Whether recordings use `primaryConstituentDeviceSwitchingBehaviorForRecording`: by
    /// default true when connected to a device that switches constituents, false otherwise.
    /// Setting it never raises (Apple's header names no exception); it reads false while the
    /// connected device cannot switch.
    open var isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled: Bool {
        get {
            guard switchingDevice != nil else { return false }
            return recordingSwitching.withLock { $0.enabled } ?? true
        }
        set { storeRecordingSwitchingEnabled(newValue) }
    }

    /// Sets the switching behaviour and conditions recordings use. Anything but
    /// `.unsupported` for a device that cannot switch, or conditions with a behaviour other
    /// than `.restricted`, raises `NSInvalidArgumentException`; `.unsupported` for a device
    /// that can switch is kept and restricts nothing. Set while recording, it applies at once.
    open func setPrimaryConstituentDeviceSwitchingBehaviorForRecording(
        _ switchingBehavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) {
        enforce {
            try setPrimaryConstituentDeviceSwitchingBehaviorForRecordingChecked(
                switchingBehavior, restrictedSwitchingBehaviorConditions: restrictedSwitchingBehaviorConditions)
        }
    }

    /// The behaviour recordings use (default `.restricted`).
    open var primaryConstituentDeviceSwitchingBehaviorForRecording: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior {
        recordingSwitching.withLock { $0.behavior }
    }

    /// The conditions recordings use (default zoom, focus-mode and exposure-mode changes).
    open var primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording:
        AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    {
        recordingSwitching.withLock { $0.conditions }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureMovieFileOutput+TimedMetadata.swift)

    /// Whether recordings get a timed-metadata track of the video connection's orientation
    /// and mirroring (iOS 15; default false): `AVMetadataIdentifier.quickTimeMetadataVideoOrientation`
    /// samples (a 16-bit CGImagePropertyOrientation) at the start and at each change of
    /// `videoRotationAngle`/`videoOrientation` or `isVideoMirrored` while recording. A
    /// connection that is not one of this output's video connections raises
    /// `NSInvalidArgumentException`.
    open func recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for connection: AVCaptureConnection) -> Bool {
        enforce { try checkOrientationTrackConnection(connection, "recordsVideoOrientationAndMirroringChangesAsMetadataTrackForConnection:") }
        return orientationTracks.withLock { $0.enabled.contains(ObjectIdentifier(connection)) }
    }

    /// Turns the orientation track on or off for the recordings started from now on; the
    /// same connections as `recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for:)`.
    open func setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack(_ doRecordChanges: Bool, for connection: AVCaptureConnection) {
        enforce {
            try checkOrientationTrackConnection(connection, "setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack:forConnection:")
        }
        orientationTracks.withLock {
            if doRecordChanges { $0.enabled.insert(ObjectIdentifier(connection)) } else { $0.enabled.remove(ObjectIdentifier(connection)) }
        }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureMovieFileOutput+Modes.swift)

    /// The output-settings keys `setOutputSettings(_:for:)` takes for the connection:
    /// `AVVideoCodecKey` and `AVVideoCompressionPropertiesKey` for video (iOS 12); for audio
    /// `AVFormatIDKey`, `AVSampleRateKey`, `AVNumberOfChannelsKey`, `AVEncoderBitRateKey`.
    open func supportedOutputSettingsKeys(for connection: AVCaptureConnection) -> [String] {
        if connection.inputPorts.contains(where: { $0.mediaType == .video }) { return [AVVideoCodecKey, AVVideoCompressionPropertiesKey] }
        if connection.inputPorts.contains(where: { $0.mediaType == .audio }) { return Self.audioOutputSettingsKeys }
        return []
    }

    /// Whether the output can record spatial (stereo MV-HEVC) video; `false`: no Linux
    /// camera pair is calibrated for it and FFmpeg does not encode MV-HEVC.
    open var isSpatialVideoCaptureSupported: Bool { false }

    /// Whether recordings are spatial video (default `false`); turning it on unsupported raises
    /// `NSInvalidArgumentException`, as on an iPhone without it.
    open var isSpatialVideoCaptureEnabled: Bool {
        get { false }
        set { enforce { try setSpatialVideoCaptureEnabled(newValue) } }
    }
}
