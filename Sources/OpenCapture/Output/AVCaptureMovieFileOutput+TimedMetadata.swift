import Foundation
import MediaIO

/// The orientation tracks of a movie file output's video connections.
struct OrientationTracks {
    /// The video connections whose recordings get an orientation track.
    var enabled: Set<ObjectIdentifier> = []
    /// The connection recorded now, nil when the recording has no orientation track.
    var recording: ObjectIdentifier?
    /// The orientation last sent to the recording.
    var last: Int16?
}

extension AVCaptureMovieFileOutput {
    /// The key of the orientation track.
    static let orientationKey = CMMetadataKeyEntry(
        identifier: AVMetadataIdentifier.quickTimeMetadataVideoOrientation.rawValue, dataType: kCMMetadataBaseDataType_SInt16)

    func checkOrientationTrackConnection(_ connection: AVCaptureConnection, _ selector: String) throws(AVCaptureException) {
        guard connections.contains(where: { $0 === connection }), connection.inputPorts.contains(where: { $0.mediaType == .video }) else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMovieFileOutput", selector, "connection \(connection) is not a video connection of this output"))
        }
    }

    /// The timed-metadata tracks of a recording starting now: one per enabled connection
    /// from a metadata input (associated with the video track), then the orientation track.
    func metadataTracksForRecording(hasVideo: Bool) -> [(ObjectIdentifier, MovieMetadataTrackSettings)] {
        var tracks: [(ObjectIdentifier, MovieMetadataTrackSettings)] = []
        for connection in connections where connection.isEnabled {
            guard let input = connection.inputPorts.first(where: { $0.mediaType == .metadata })?.input as? AVCaptureMetadataInput else { continue }
            tracks.append((ObjectIdentifier(input), TimedMetadataCoding.track(for: input.metadataKeys, describesVideo: hasVideo)))
        }
        let video = connection(with: .video)
        let orientation = video.flatMap { video in
            orientationTracks.withLock { $0.enabled.contains(ObjectIdentifier(video)) } ? ObjectIdentifier(video) : nil
        }
        if let orientation, hasVideo {
            tracks.append((orientation, TimedMetadataCoding.track(for: [Self.orientationKey], describesVideo: true)))
        }
        orientationTracks.withLock {
            $0.recording = hasVideo ? orientation : nil
            $0.last = nil
        }
        return tracks
    }

    /// Before each frame (capture thread): sends the video connection's orientation to the
    /// recording when it is the first or has changed.
    func noteOrientation(at time: CMTime) {
        guard isRecording, let source = orientationTracks.withLock({ $0.recording }), let video = connection(with: .video),
            ObjectIdentifier(video) == source
        else { return }
        let value = Self.orientation(rotation: video.videoRotationAngle, mirrored: video.isVideoMirrored)
        let changed = orientationTracks.withLock { tracks -> Bool in
            guard tracks.last != value else { return false }
            tracks.last = value
            return true
        }
        guard changed else { return }
        let sample = MovieMetadataTrackSettings.sample([(1, withUnsafeBytes(of: value.bigEndian) { Data($0) })])
        recorder.consumeMetadata(sample, time: time, source: source)
    }

    /// The CGImagePropertyOrientation (TIFF orientation) of a clockwise rotation and a mirroring.
    static func orientation(rotation: CGFloat, mirrored: Bool) -> Int16 {
        let quarter = (Int((rotation / 90).rounded()) % 4 + 4) % 4
        return mirrored ? [2, 7, 4, 5][quarter] : [1, 6, 3, 8][quarter]
    }
}
