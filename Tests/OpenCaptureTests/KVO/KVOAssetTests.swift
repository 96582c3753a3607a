import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

/// One observer call as "old→new@where" ("prior:" first for a prior call), where is the
/// queue tagged with `ChangeLog.queueKey`, else "caller" on the test's own thread, else
/// "other".
final class ChangeLog: Sendable {
    static let queueKey = DispatchSpecificKey<String>()
    private let log = Mutex<[String]>([])
    private let caller = UncheckedSendable(Thread.current)

    var entries: [String] { log.withLock { $0 } }

    func record<Value>(_ change: NSKeyValueObservedChange<Value>, _ text: (Value?) -> String = { $0.map { "\($0)" } ?? "-" }) {
        append("\(change.isPrior ? "prior:" : "")\(text(change.oldValue))→\(text(change.newValue))@\(place)")
    }

    func append(_ entry: String) { log.withLock { $0.append(entry) } }

    var place: String {
        DispatchQueue.getSpecific(key: Self.queueKey) ?? (Thread.current === caller.value ? "caller" : "other")
    }
}

/// An `error` change as the AVError code it holds, "nil" for none.
private func errorCode(_ error: (any Error)??) -> String {
    guard let error = error ?? nil else { return "nil" }
    return (error as? AVError).map { "\($0.code.rawValue)" } ?? "\(error)"
}

@Suite("KVO of asset writers, readers, export sessions, recordings and the input's frame-duration override", .serialized)
struct KVOAssetTests {
    /// A writer of one video input (a queue of 2 buffers: not real-time) to a new MP4.
    private static func writer() throws -> (AVAssetWriter, AVAssetWriterInput, URL) {
        let url = AssetWriterFixture.temporaryURL("mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterTests.videoSettings())
        writer.add(input)
        writer.queue.setSpecific(key: ChangeLog.queueKey, value: "writer")
        return (writer, input, url)
    }

    @Test("writer status .unknown → .writing → .completed and isReadyForMoreMediaData false→true, true→false at a full queue, back on the writer's queue, false at finish")
    func writerStatusAndReadiness() throws {
        let (writer, input, url) = try Self.writer()
        defer { try? FileManager.default.removeItem(at: url) }
        let status = ChangeLog(), ready = ChangeLog(), error = ChangeLog(), order = ChangeLog()
        let observations = [
            writer.observe(\.status, options: [.old, .new]) { _, change in
                status.record(change)
                order.append("status")
            },
            writer.observe(\.error, options: [.old, .new]) { _, change in error.record(change) },
            input.observe(\.isReadyForMoreMediaData, options: [.old, .new]) { _, change in
                ready.record(change)
                order.append("ready")
            },
        ]
        defer { observations.forEach { $0.invalidate() } }
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        // Hold back encoding so the second append fills the queue of two.
        writer.queue.suspend()
        #expect(input.append(AssetWriterFixture.videoSample(AssetWriterFixture.frame(), at: .zero)))
        #expect(input.append(AssetWriterFixture.videoSample(AssetWriterFixture.frame(), at: CMTime(value: 1, timescale: 30))))
        #expect(!input.isReadyForMoreMediaData)
        writer.queue.resume()
        writer.queue.sync {}  // both frames encoded
        let finished = DispatchSemaphore(value: 0)
        writer.finishWriting {
            status.append("handler")
            finished.signal()
        }
        finished.wait()
        #expect(writer.status == .completed)
        #expect(status.entries == ["unknown→writing@caller", "writing→completed@writer", "handler"], "announced before the completion handler")
        #expect(ready.entries == ["false→true@caller", "true→false@caller", "false→true@writer", "true→false@caller"])
        #expect(Array(order.entries.prefix(2)) == ["status", "ready"], "the writer's status first, then its inputs' readiness")
        #expect(error.entries.isEmpty, "no error: error never changed")
    }

    @Test("a writer that cannot create its file: status .unknown → .failed with error nil → fileAlreadyExists, on the caller's thread")
    func writerFailure() throws {
        let (writer, input, url) = try Self.writer()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("taken".utf8).write(to: url)
        let status = ChangeLog(), error = ChangeLog(), ready = ChangeLog()
        let observations = [
            writer.observe(\.status, options: [.old, .new, .prior]) { _, change in status.record(change) },
            writer.observe(\.error, options: [.old, .new]) { _, change in error.record(change, errorCode) },
            input.observe(\.isReadyForMoreMediaData, options: [.new]) { _, change in ready.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        #expect(!writer.startWriting())
        #expect(status.entries == ["prior:unknown→-@caller", "unknown→failed@caller"])
        #expect(error.entries == ["nil→\(AVError.Code.fileAlreadyExists.rawValue)@caller"])
        #expect(ready.entries.isEmpty, "never ready: nothing to announce")
    }

    @Test("cancelWriting: status .writing → .cancelled and readiness true → false on the caller's thread; the string form hears \"status\"")
    func writerCancel() throws {
        let (writer, input, url) = try Self.writer()
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(writer.startWriting())
        let status = ChangeLog(), ready = ChangeLog()
        let observer = StringObserver()
        writer.addObserver(observer, forKeyPath: "status", options: [.new], context: nil)
        input.addObserver(observer, forKeyPath: "readyForMoreMediaData", options: [.new], context: nil)
        let observations = [
            writer.observe(\.status, options: [.old, .new]) { _, change in status.record(change) },
            input.observe(\.isReadyForMoreMediaData, options: [.old, .new]) { _, change in ready.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        writer.cancelWriting()
        writer.cancelWriting()  // no change, no announcement
        writer.removeObserver(observer, forKeyPath: "status")
        input.removeObserver(observer, forKeyPath: "readyForMoreMediaData")
        #expect(status.entries == ["writing→cancelled@caller"])
        #expect(ready.entries == ["true→false@caller"])
        #expect(observer.keyPaths.withLock { $0 } == ["status", "readyForMoreMediaData"])
    }

    @Test("reader status .unknown → .reading → .completed on the reading thread; a file that is not media .reading → .failed with its error; cancel → .cancelled")
    func readerStatus() throws {
        let clip = try AssetReaderFixture.video("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: clip) }
        let asset = AVURLAsset(url: clip)
        let track = try #require(asset.tracks.first { $0.mediaType == .video })
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        let status = ChangeLog()
        let observation = reader.observe(\.status, options: [.old, .new]) { _, change in status.record(change) }
        #expect(reader.startReading())
        #expect(!AssetReaderFixture.drain(output).isEmpty)
        observation.invalidate()
        #expect(status.entries == ["unknown→reading@caller", "reading→completed@caller"])

        let junk = AssetWriterFixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: junk) }
        try Data("This is not a movie.\n".utf8).write(to: junk)
        let failing = try AVAssetReader(asset: AVURLAsset(url: junk))
        let failed = ChangeLog(), error = ChangeLog()
        let failures = [
            failing.observe(\.status, options: [.old, .new]) { _, change in failed.record(change) },
            failing.observe(\.error, options: [.old, .new]) { _, change in error.record(change, errorCode) },
        ]
        #expect(!failing.startReading())
        failures.forEach { $0.invalidate() }
        #expect(failed.entries == ["unknown→reading@caller", "reading→failed@caller"])
        #expect(error.entries == ["nil→\(AVError.Code.fileFormatNotRecognized.rawValue)@caller"])

        let cancelled = try AVAssetReader(asset: asset)
        let cancelling = ChangeLog()
        let cancelObservation = cancelled.observe(\.status, options: [.old, .new]) { _, change in cancelling.record(change) }
        cancelled.cancelReading()
        cancelObservation.invalidate()
        #expect(cancelling.entries == ["unknown→cancelled@caller"])
    }

    @Test("export status .unknown → .waiting (caller) → .exporting → .completed (export queue), before the handler; a failure sets error; cancelExport before exporting → .cancelled")
    func exportStatus() throws {
        let clip = try AssetReaderFixture.video("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: clip) }
        func export(_ source: URL) throws -> (status: [String], error: [String]) {
            let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetPassthrough))
            let target = AssetWriterFixture.temporaryURL("mp4")
            defer { try? FileManager.default.removeItem(at: target) }
            session.outputURL = target
            session.outputFileType = .mp4
            let status = ChangeLog(), error = ChangeLog()
            let observations = [
                session.observe(\.status, options: [.old, .new]) { _, change in status.record(change) },
                session.observe(\.error, options: [.old, .new]) { _, change in error.record(change, errorCode) },
            ]
            defer { observations.forEach { $0.invalidate() } }
            let done = DispatchSemaphore(value: 0)
            session.exportAsynchronously {
                status.append("handler")
                done.signal()
            }
            done.wait()
            return (status.entries, error.entries)
        }
        let good = try export(clip)
        #expect(good.status == ["unknown→waiting@caller", "waiting→exporting@other", "exporting→completed@other", "handler"])
        #expect(good.error.isEmpty)

        let junk = AssetWriterFixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: junk) }
        try Data("This is not a movie.\n".utf8).write(to: junk)
        let bad = try export(junk)
        #expect(bad.status == ["unknown→waiting@caller", "waiting→exporting@other", "exporting→failed@other", "handler"])
        #expect(bad.error.count == 1 && bad.error.first?.hasPrefix("nil→") == true && bad.error.first?.hasSuffix("@other") == true)

        let cancelled = try #require(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: AVAssetExportPresetPassthrough))
        let cancelling = ChangeLog()
        let observation = cancelled.observe(\.status, options: [.old, .new]) { _, change in cancelling.record(change) }
        cancelled.cancelExport()
        observation.invalidate()
        #expect(cancelling.entries == ["unknown→cancelled@caller"])
    }

    @Test("a recording: isRecording false→true and outputFileURL nil→url on the caller, recordingPaused both ways, isRecording true→false before the delegate hears the end")
    func movieRecording() throws {
        let movie = AVCaptureMovieFileOutput()
        let rig = try TestRig(preset: .vga640x480)
        defer { rig.stop() }
        rig.session.addOutput(movie)
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        let url = MovieFileOutputTests.temporaryURL("kvo.mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        let recording = ChangeLog(), paused = ChangeLog(), file = ChangeLog()
        let observations = [
            movie.observe(\.isRecording, options: [.old, .new]) { _, change in
                recording.record(change)
                if change.newValue == false, delegate.finished.withLock({ !$0.isEmpty }) { recording.append("after the delegate") }
            },
            movie.observe(\.isRecordingPaused, options: [.old, .new]) { _, change in paused.record(change) },
            movie.observe(\.outputFileURL, options: [.old, .new]) { _, change in
                file.record(change) { $0.map { $0?.lastPathComponent ?? "nil" } ?? "-" }
            },
        ]
        defer { observations.forEach { $0.invalidate() } }
        movie.startRecording(to: url, recordingDelegate: delegate)
        #expect(recording.entries == ["false→true@caller"])
        #expect(file.entries == ["nil→\(url.lastPathComponent)@caller"])
        eventually("3 frames recorded") { movie.recordedFrameCount >= 3 }
        movie.pauseRecording()
        movie.pauseRecording()  // already paused: no change
        movie.resumeRecording()
        eventually("6 frames recorded") { movie.recordedFrameCount >= 6 }
        movie.stopRecording()
        try delegate.wait()
        #expect(paused.entries == ["false→true@caller", "true→false@caller"])
        #expect(recording.entries == ["false→true@caller", "true→false@other"], "off on the recording queue, before didFinishRecordingTo")
        #expect(file.entries.count == 1, "the URL stays the last file's")
        #expect(!movie.isRecording)
    }

    @Test("addInput resets videoMinFrameDurationOverride: announced old → .invalid once the session lets go, nothing when already .invalid")
    func frameDurationOverrideReset() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let input = try AVCaptureDeviceInput(device: device)
        let other = try AVCaptureDeviceInput(device: device)
        let session = AVCaptureSession()
        let changes = ChangeLog(), untouched = ChangeLog()
        let observations = [
            input.observe(\.videoMinFrameDurationOverride, options: [.old, .new]) { _, change in
                changes.record(change) { $0.map { $0.isValid ? "\($0.value)/\($0.timescale)" : "invalid" } ?? "-" }
                _ = session.inputs  // the session's locks are free here
            },
            other.observe(\.videoMinFrameDurationOverride, options: [.new]) { _, change in untouched.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        input.videoMinFrameDurationOverride = CMTime(value: 1, timescale: 15)
        #expect(session.canAddInput(input))
        session.addInput(input)
        #expect(!input.videoMinFrameDurationOverride.isValid)
        #expect(changes.entries == ["invalid→1/15@caller", "1/15→invalid@caller"])
        session.removeInput(input)
        let second = AVCaptureSession()
        second.addInput(other)
        #expect(untouched.entries.isEmpty, "already .invalid: no change to announce")
        second.removeInput(other)
    }
}
