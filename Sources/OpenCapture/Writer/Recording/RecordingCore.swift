import Foundation

/// The recorder core shared by everything that records with MediaIO's `MovieWriter`:
/// `MovieRecorder` (behind `AVCaptureMovieFileOutput`), `AVAssetWriter` and
/// `LivePhotoMovie` (a Live Photo's movie).
///
/// One value per recording, kept under its client's lock or on its client's serial queue:
/// the core has no lock of its own, so a frame pays no extra lock. It holds the status
/// machine (`Phase`, moved only along the client's `Transitions`) and the first-sample
/// session start (`startSession(at:)`). The back-pressure the clients put in front of the
/// writer's queue is `RecordingCore.BackPressure` (RecordingCore+BackPressure.swift) and
/// the mapping of `MovieWriterError` to `AVError` is `RecordingCore.avError`
/// (RecordingCore+Errors.swift).
struct RecordingCore: Sendable {
    /// Where a recording is.
    enum Phase: Sendable, Hashable {
        /// Nothing written yet: before the first sample opens the file (movie output),
        /// before `startWriting` (asset writer), while frames are collected (Live Photo).
        case idle
        /// The file is open and takes media.
        case writing
        /// Ending: only what completes the file is still written (the movie output's sound
        /// up to its last frame's end; the asset writer's queue after `finishWriting`).
        case finishing
        /// The file is complete.
        case finished
        /// Writing stopped on an error; what was written may still play.
        case failed
        /// Stopped on request, the file removed (asset writer).
        case cancelled

        /// Whether the recording is over (no move leaves these).
        var isOver: Bool { self == .finished || self == .failed || self == .cancelled }
        /// Whether the writer is open: writing or finishing.
        var isOpen: Bool { self == .writing || self == .finishing }
    }

    /// The moves a client allows; any other is refused by `move(to:)`.
    struct Transitions: Sendable {
        private let moves: Set<Move>

        private struct Move: Hashable, Sendable {
            let from: Phase
            let to: Phase
        }

        init(_ moves: [(from: Phase, to: Phase)]) { self.moves = Set(moves.map { Move(from: $0.from, to: $0.to) }) }

        func allows(_ from: Phase, _ to: Phase) -> Bool { moves.contains(Move(from: from, to: to)) }

        /// `MovieRecorder`'s recordings: the first sample opens the file; a recording with
        /// sound and video ends by finishing (waiting for its sound); one that never opened
        /// its file fails (no data, the file exists, the writer could not open).
        static let movieFileOutput = Transitions([
            (.idle, .writing), (.idle, .failed),
            (.writing, .finishing), (.writing, .finished), (.writing, .failed),
            (.finishing, .finished), (.finishing, .failed),
        ])

        /// `AVAssetWriter`: `startWriting` opens (or fails), `finishWriting` finishes,
        /// `cancelWriting` cancels from any phase before the end, and an encoding failure
        /// fails an open writer.
        static let assetWriter = Transitions([
            (.idle, .writing), (.idle, .failed), (.idle, .cancelled),
            (.writing, .finishing), (.writing, .failed), (.writing, .cancelled),
            (.finishing, .finished), (.finishing, .failed), (.finishing, .cancelled),
        ])

        /// A Live Photo movie: collected (idle), then written once on the writer queue; a
        /// movie whose still failed fails without a file.
        static let livePhotoMovie = Transitions([
            (.idle, .writing), (.idle, .failed),
            (.writing, .finished), (.writing, .failed),
        ])
    }

    private let transitions: Transitions
    private(set) var phase = Phase.idle
    /// The source time that is time 0 of the file; invalid until the session starts.
    private(set) var sessionStart = CMTime.invalid
    private(set) var isSessionStarted = false

    init(_ transitions: Transitions) { self.transitions = transitions }

    /// Moves to `next` if the client allows the move from the present phase; false, and
    /// nothing changes, otherwise (a second finish, a failure after a cancel).
    @discardableResult
    mutating func move(to next: Phase) -> Bool {
        guard transitions.allows(phase, next) else { return false }
        phase = next
        return true
    }

    /// Starts the timeline at `time`: the first sample's time (movie output, Live Photo) or
    /// the app's (`startSession(atSourceTime:)`). False, and the start kept, when it had
    /// started already.
    mutating func startSession(at time: CMTime) -> Bool {
        guard !isSessionStarted else { return false }
        isSessionStarted = true
        sessionStart = time
        return true
    }
}
