import Foundation

/// An input that supplies timed metadata from the app (iOS 9): one port of media type
/// `.metadata`, for Apple to write as a timed-metadata track of an `AVCaptureMovieFileOutput`.
///
/// On Linux the movie writer has no timed-metadata tracks, so the connection is answered
/// as Apple answers a connection the output cannot take: the input can be added with
/// `addInputWithNoConnections(_:)` (it never connects by itself), and
/// `canAddConnection(_:)` is false for a connection from its port to any output (so
/// `addConnection(_:)` raises `NSInvalidArgumentException`). `append(_:)` throws
/// `AVError.sessionNotRunning` outside a running session; in a running one the group is
/// checked and, with no connection to carry it, goes nowhere, as media of an unconnected
/// port does.
open class AVCaptureMetadataInput: AVCaptureInput, @unchecked Sendable {
    private let metadataDescription: CMMetadataFormatDescription
    private let inputClock: CMClock
    private lazy var metadataPorts: [Port] = [
        Port(input: self, mediaType: .metadata, clock: inputClock, sourceDeviceType: nil, sourceDevicePosition: .unspecified) {
            [metadataDescription] in metadataDescription
        }
    ]
    weak var session: AVCaptureSession?

    /// An input for metadata described by `desc` (a timed-metadata format description,
    /// else `NSInvalidArgumentException`), timed on `clock`.
    public init(formatDescription desc: CMMetadataFormatDescription, clock: CMClock) {
        metadataDescription = desc
        inputClock = clock
        super.init()
        if desc.mediaType.rawValue != kCMMediaType_Metadata {
            AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureMetadataInput", "initWithFormatDescription:clock:", "formatDescription must describe metadata (kCMMediaType_Metadata)")).raise()
        }
    }

    /// The one metadata port.
    open override var ports: [Port] { metadataPorts }

    /// Supplies a group of metadata items for the time range it gives (on the input's
    /// clock). Throws `AVError.sessionNotRunning` unless the input is in a running session,
    /// and `AVError.Code.unknown` for a group whose range has no numeric start.
    open func append(_ metadata: AVTimedMetadataGroup) throws {
        guard let session, session.isRunning else {
            throw AVError(.sessionNotRunning, "Cannot append timed metadata: the input is not in a running session")
        }
        guard metadata.timeRange.start.isNumeric else {
            throw AVError(.unknown, "Cannot append timed metadata: the group's time range has no numeric start")
        }
    }
}
