import Foundation
import MediaIO
import Testing

@testable import OpenCapture

/// The recorder core shared by the movie output, the asset writer and Live Photo movies:
/// each client's allowed moves, the session start, the back-pressure and the error mapping.
@Suite("Recording core")
struct RecordingCoreTests {
    typealias Phase = RecordingCore.Phase

    /// Tries every move from a core walked along `path`, returning the phases it accepted.
    static func accepted(_ transitions: RecordingCore.Transitions, after path: [Phase]) -> Set<Phase> {
        let all: [Phase] = [.idle, .writing, .finishing, .finished, .failed, .cancelled]
        return Set(all.filter { next in
            var core = RecordingCore(transitions)
            for phase in path {
                let moved = core.move(to: phase)
                #expect(moved, "\(path) is a path of the client")
            }
            return core.move(to: next)
        })
    }

    @Test("a movie output's recording opens on its first sample, may finish by waiting for sound, and never leaves its end")
    func movieFileOutputMoves() {
        #expect(Self.accepted(.movieFileOutput, after: []) == [.writing, .failed])
        #expect(Self.accepted(.movieFileOutput, after: [.writing]) == [.finishing, .finished, .failed])
        #expect(Self.accepted(.movieFileOutput, after: [.writing, .finishing]) == [.finished, .failed])
        #expect(Self.accepted(.movieFileOutput, after: [.writing, .finished]).isEmpty)
        #expect(Self.accepted(.movieFileOutput, after: [.failed]).isEmpty)
    }

    @Test("an asset writer may be cancelled before, while and after asking to finish, and fails only while open")
    func assetWriterMoves() {
        #expect(Self.accepted(.assetWriter, after: []) == [.writing, .failed, .cancelled])
        #expect(Self.accepted(.assetWriter, after: [.writing]) == [.finishing, .failed, .cancelled])
        #expect(Self.accepted(.assetWriter, after: [.writing, .finishing]) == [.finished, .failed, .cancelled])
        #expect(Self.accepted(.assetWriter, after: [.cancelled]).isEmpty)
        #expect(Self.accepted(.assetWriter, after: [.writing, .finishing, .finished]).isEmpty)
    }

    @Test("a Live Photo movie is written once, or fails without a file while collected")
    func livePhotoMovieMoves() {
        #expect(Self.accepted(.livePhotoMovie, after: []) == [.writing, .failed])
        #expect(Self.accepted(.livePhotoMovie, after: [.writing]) == [.finished, .failed])
        #expect(Self.accepted(.livePhotoMovie, after: [.failed]).isEmpty)
    }

    @Test("AVAssetWriter.status reads the phase: .writing while finishing, as Apple's writer")
    func assetWriterStatusOfPhases() {
        let pairs: [(Phase, AVAssetWriter.Status)] = [
            (.idle, .unknown), (.writing, .writing), (.finishing, .writing), (.finished, .completed), (.failed, .failed), (.cancelled, .cancelled),
        ]
        for (phase, status) in pairs { #expect(AVAssetWriter.Status(phase) == status) }
    }

    @Test("the session starts once: a second start is refused and the first time kept")
    func sessionStartsOnce() {
        var core = RecordingCore(.movieFileOutput)
        #expect(!core.isSessionStarted && !core.sessionStart.isValid)
        let first = core.startSession(at: CMTime(value: 3, timescale: 2))
        let second = core.startSession(at: CMTime(value: 9, timescale: 1))
        #expect(first && !second)
        #expect(core.isSessionStarted && core.sessionStart == CMTime(value: 3, timescale: 2))
    }

    @Test("back-pressure: admits up to the limit and counts the rest dropped; a forced queue reports no room")
    func backPressure() {
        var frames = RecordingCore.BackPressure()
        let taken = (0..<5).map { _ in frames.admit(limit: 3) }
        #expect(taken == [true, true, true, false, false])
        #expect(frames.queued == 3 && frames.dropped == 2 && !frames.hasRoom(below: 3))
        frames.dequeue()
        #expect(frames.hasRoom(below: 3))
        let admitted = frames.admit(limit: 3)
        #expect(admitted && frames.queued == 3)
        frames.drop(4)
        #expect(frames.dropped == 6)
        frames.resetDropped()
        #expect(frames.dropped == 0 && frames.queued == 3)
        var input = RecordingCore.BackPressure()
        for _ in 0..<3 { input.enqueue() }
        #expect(input.queued == 3 && input.dropped == 0 && !input.hasRoom(below: 2))
    }

    @Test("writer errors map to each client's AVError codes, with AVErrorRecordingSuccessfullyFinishedKey for file outputs")
    func errorMapping() {
        let full = RecordingCore.avError(MovieWriterError.diskFull, for: .fileOutput(wroteMedia: true))
        #expect(full.code == .diskFull && full.recordingSuccessfullyFinished == true)
        let exists = RecordingCore.avError(MovieWriterError.fileExists, for: .fileOutput(wroteMedia: true))
        #expect(exists.code == .fileAlreadyExists && exists.recordingSuccessfullyFinished == false)
        let encoder = RecordingCore.avError(MovieWriterError.encoder("x264"), for: .fileOutput(wroteMedia: false))
        #expect(encoder.code == .unknown && encoder.recordingSuccessfullyFinished == false)
        #expect(RecordingCore.avError(MovieWriterError.invalidSettings("odd"), for: .fileOutput(wroteMedia: false)).code == .unknown)
        let settings = RecordingCore.avError(MovieWriterError.invalidSettings("odd width"), for: .assetWriter)
        #expect(settings.code == .encoderNotFound && settings.recordingSuccessfullyFinished == nil)
        #expect(RecordingCore.avError(MovieWriterError.fileExists, for: .assetWriter).code == .fileAlreadyExists)
        #expect(RecordingCore.avError(MovieWriterError.diskFull, for: .assetWriter).code == .diskFull)
        #expect(RecordingCore.avError(CocoaError(.fileWriteUnknown), for: .assetWriter).code == .unknown)
    }

    @Test("AVAssetWriter reads .writing while finishWriting finishes the file, then .completed; a cancel after that changes nothing")
    func assetWriterFinishing() throws {
        let url = AssetWriterFixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        #expect(adaptor.append(AssetWriterFixture.frame(width: 64, height: 48), withPresentationTime: .zero))
        // Held: the file cannot be finished until the writer's queue resumes.
        writer.queue.suspend()
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        #expect(writer.status == .writing && input.isFinished && !input.isReadyForMoreMediaData)
        writer.queue.resume()
        done.wait()
        #expect(writer.status == .completed && writer.error == nil)
        writer.cancelWriting()
        #expect(writer.status == .completed && FileManager.default.fileExists(atPath: url.path))
    }
}
