import Foundation

/// An input that supplies timed metadata from the app (iOS 9): one port of media type
/// `.metadata`, whose groups an `AVCaptureMovieFileOutput` records as a timed-metadata
/// track ('mebx', associated with the video track by a 'cdsc' reference).
///
/// As on iOS, the input is added with `addInputWithNoConnections(_:)` and connected to the
/// movie file output with `addConnection(_:)`; only a movie file output can take the
/// connection (`canAddConnection(_:)` is false for any other). Each group applies from its
/// start until the next group's start; an empty group ends the one before it.
open class AVCaptureMetadataInput: AVCaptureInput, @unchecked Sendable {
    private let metadataDescription: CMMetadataFormatDescription
    private let inputClock: CMClock
    private lazy var metadataPorts: [Port] = [
        Port(input: self, mediaType: .metadata, clock: inputClock, sourceDeviceType: nil, sourceDevicePosition: .unspecified) {
            [metadataDescription] in metadataDescription
        }
    ]
    weak var session: AVCaptureSession?

    /// An input for metadata described by `desc` (a boxed timed-metadata format description
    /// made with `CMMetadataFormatDescriptionCreateWithMetadataSpecifications`, else
    /// `NSInvalidArgumentException`), timed on `clock`.
    public init(formatDescription desc: CMMetadataFormatDescription, clock: CMClock) {
        metadataDescription = desc
        inputClock = clock
        super.init()
        if desc.mediaType.rawValue != kCMMediaType_Metadata || desc.metadataKeys == nil {
            AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMetadataInput", "initWithFormatDescription:clock:",
                "formatDescription must be a boxed metadata format description (kCMMetadataFormatType_Boxed)")).raise()
        }
    }

    /// The one metadata port.
    open override var ports: [Port] { metadataPorts }

    /// The keys the port's format description declares.
    var metadataKeys: [CMMetadataKeyEntry] { metadataDescription.metadataKeys ?? [] }

    /// Supplies a group of metadata items from its time range's start (on the input's
    /// clock) to the movie file outputs connected to the input: it is written when they
    /// record (before the first frame it waits and applies from the recording's start).
    /// Throws `AVError.sessionNotRunning` unless the input is in a running session,
    /// `AVError.Code.unknown` for a group whose range has no numeric start or whose items
    /// the format description does not describe. Call it from any thread.
    open func append(_ metadata: AVTimedMetadataGroup) throws {
        guard let session, session.isRunning else {
            throw AVError(.sessionNotRunning, "Cannot append timed metadata: the input is not in a running session")
        }
        guard metadata.timeRange.start.isNumeric else {
            throw AVError(.unknown, "Cannot append timed metadata: the group's time range has no numeric start")
        }
        let sample = try TimedMetadataCoding.sample(of: metadata, keys: metadataKeys).get()
        let time = CMSyncConvertTime(metadata.timeRange.start, from: inputClock, to: session.synchronizationClock ?? CMClockGetHostTimeClock())
        let port = metadataPorts[0]
        for connection in session.connections where connection.isEnabled && connection.inputPorts.contains(where: { $0 === port }) {
            connection.consumer?.take(timedMetadata: sample, time: time, source: ObjectIdentifier(self))
        }
    }
}
