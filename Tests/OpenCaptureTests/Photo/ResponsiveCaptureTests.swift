import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records the callbacks of several captures in one list, each event tagged with its
/// capture's name, and what the output's readiness was when each photo was captured.
final class SharedPhotoLog: @unchecked Sendable {
    let events = Mutex<[String]>([])
    let readinessAtCapture = Mutex<[String: AVCapturePhotoOutput.CaptureReadiness]>([:])

    func index(_ event: String) -> Int? { events.withLock { $0.firstIndex(of: event) } }
}

final class TaggedPhotoRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let name: String
    let log: SharedPhotoLog
    let resolved = Mutex<AVCaptureResolvedPhotoSettings?>(nil)
    let photo = Mutex<AVCapturePhoto?>(nil)
    let done = Completion<Void>("the photo capture's end")

    init(_ name: String, _ log: SharedPhotoLog) {
        self.name = name
        self.log = log
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        log.events.withLock { $0.append("\(name).willBegin") }
        resolved.withLock { $0 = resolvedSettings }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        log.readinessAtCapture.withLock { $0[name] = output.captureReadiness }
        log.events.withLock { $0.append("\(name).didCapture") }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        log.events.withLock { $0.append("\(name).didFinishProcessing") }
        self.photo.withLock { $0 = photo }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        done.fulfil()
    }

    func wait(sourceLocation: SourceLocation = #_sourceLocation) throws -> AVCapturePhoto? {
        try done.wait(sourceLocation: sourceLocation)
        return photo.withLock { $0 }
    }
}

/// Zero shutter lag, responsive capture, fast capture prioritization and the memory they
/// hold, at CIF size.
@Suite("Zero shutter lag and responsive capture", .serialized)
struct ResponsiveCaptureTests {
    static func small() -> AVCapturePhotoSettings { PhotoReadinessTests.small() }

    @Test("zero shutter lag: the photo is the frame exposing at capturePhoto (timestamp at or before the call); without it, or with the flash, a later frame")
    func zeroShutterLagTimestamp() throws {
        let rig = try TestRig(preset: .cif352x288, pacing: .realTime)
        defer { rig.stop() }
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        #expect(photo.isZeroShutterLagSupported && photo.isZeroShutterLagEnabled, "on by default, as for apps linked on iOS 17")
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(3)
        /// The photo's timestamp, the host time just before and just after the call (the
        /// moment a zero-shutter-lag photo is taken at lies between), and the newest frame
        /// delivered before the call.
        func take(flash: AVCaptureDevice.FlashMode = .off) throws -> (taken: CMTime, called: CMTime, returned: CMTime, newestBefore: CMTime) {
            let settings = Self.small()
            settings.flashMode = flash
            let recorder = PhotoRecorder()
            let newest = rig.collector.frames.last?.time ?? .zero
            let called = CMClockGetTime(CMClockGetHostTimeClock())
            photo.capturePhoto(with: settings, delegate: recorder)
            let returned = CMClockGetTime(CMClockGetHostTimeClock())
            let taken = try #require(try recorder.wait())
            return (taken.timestamp, called, returned, newest)
        }
        // Which frame, not how long after: a busy machine delays frames, not the one taken.
        let zsl = try take()
        #expect(zsl.taken <= zsl.returned && zsl.taken >= zsl.newestBefore,
                "the frame on the sensor at the call: \((zsl.taken - zsl.called).seconds) s from the call")
        let flash = try take(flash: .on)
        #expect(flash.taken > flash.newestBefore, "a flash photo needs a frame exposed for it: \((flash.taken - flash.called).seconds) s")
        photo.isZeroShutterLagEnabled = false
        #expect(!photo.isResponsiveCaptureSupported)
        // A frame boundary after the call: later than any frame delivered before it.
        let late = try take()
        #expect(late.taken > late.newestBefore, "the next frame: \((late.taken - late.called).seconds) s from the call")
    }

    @Test("without responsive capture a second capture waits for the first to be processed, and readiness says so; with it, it starts at once")
    func responsiveCaptureOverlaps() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let photo = rig.photoOutput
        #expect(photo.isResponsiveCaptureSupported && !photo.isResponsiveCaptureEnabled, "supported with zero shutter lag, off by default")
        func pair() throws -> SharedPhotoLog {
            let log = SharedPhotoLog()
            let first = TaggedPhotoRecorder("A", log), second = TaggedPhotoRecorder("B", log)
            photo.capturePhoto(with: Self.small(), delegate: first)
            photo.capturePhoto(with: Self.small(), delegate: second)
            _ = try first.wait()
            _ = try second.wait()
            return log
        }
        /// The readiness right after a lone capture's exposure, while it is processed.
        func readinessWhileProcessing() throws -> AVCapturePhotoOutput.CaptureReadiness? {
            let log = SharedPhotoLog()
            let lone = TaggedPhotoRecorder("A", log)
            photo.capturePhoto(with: Self.small(), delegate: lone)
            _ = try lone.wait()
            return log.readinessAtCapture.withLock { $0["A"] }
        }
        let serial = try pair()
        #expect(try #require(serial.index("B.willBegin")) > #require(serial.index("A.didFinishProcessing")))
        #expect(serial.readinessAtCapture.withLock { $0["A"] } == .notReadyWaitingForCapture, "B waits to start")
        #expect(try readinessWhileProcessing() == .notReadyWaitingForProcessing)
        photo.isResponsiveCaptureEnabled = true
        let overlapped = try pair()
        #expect(try #require(overlapped.index("B.willBegin")) < #require(overlapped.index("A.didFinishProcessing")))
        #expect(try readinessWhileProcessing() == .ready, "one photo processing leaves room for the next")
        eventually("ready again") { photo.captureReadiness == .ready }
    }

    @Test("fast capture prioritization lowers a capture made while another processes, and resolved settings say so")
    func fastCapturePrioritization() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let photo = rig.photoOutput
        photo.maxPhotoQualityPrioritization = .quality
        #expect(!photo.isFastCapturePrioritizationSupported, "needs responsive capture")
        photo.isResponsiveCaptureEnabled = true
        #expect(photo.isFastCapturePrioritizationSupported && !photo.isFastCapturePrioritizationEnabled)
        photo.isFastCapturePrioritizationEnabled = true
        let log = SharedPhotoLog()
        let first = TaggedPhotoRecorder("A", log), second = TaggedPhotoRecorder("B", log)
        let a = Self.small(), b = Self.small()
        a.photoQualityPrioritization = .quality
        b.photoQualityPrioritization = .quality
        photo.capturePhoto(with: a, delegate: first)
        photo.capturePhoto(with: b, delegate: second)
        _ = try first.wait()
        _ = try second.wait()
        #expect(first.resolved.withLock { $0?.isFastCapturePrioritizationEnabled } == false)
        #expect(second.resolved.withLock { $0?.isFastCapturePrioritizationEnabled } == true)
        // Turning zero shutter lag off takes the two that need it with it.
        photo.isZeroShutterLagEnabled = false
        #expect(!photo.isResponsiveCaptureEnabled && !photo.isFastCapturePrioritizationEnabled && !photo.isFastCapturePrioritizationSupported)
    }

    @Test("the zero-shutter-lag history is bounded while kept and freed when zero shutter lag is off or the session stops")
    func historyMemory() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        rig.rig.collector.delay = 0
        let photo = rig.photoOutput
        eventually("the camera keeps its recent frames") { photo.zeroShutterLagHistoryBytes > 0 }
        _ = try rig.rig.collector.waitForMoreFrames(12)
        let held = photo.zeroShutterLagHistoryBytes
        #expect(held <= 64 * 1024, "\(held) bytes for 8 frame boundaries")
        photo.isZeroShutterLagEnabled = false
        eventually("freed at the next frame") { photo.zeroShutterLagHistoryBytes == 0 }
        photo.isZeroShutterLagEnabled = true
        eventually("kept again") { photo.zeroShutterLagHistoryBytes > 0 }
        rig.rig.session.stopRunning()
        #expect(photo.zeroShutterLagHistoryBytes == 0)
    }
}

/// Apple's rules between the switches end the process as iOS raises.
@Suite("Responsive capture rules end the process")
struct ResponsiveCaptureExitTests {
    /// A photo output on the simulated back camera, and its session (keep both).
    static func connected() -> (AVCaptureSession, AVCapturePhotoOutput) {
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        return (session, output)
    }

    @Test func responsiveCaptureNeedsZeroShutterLag() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            output.isZeroShutterLagEnabled = false
            withExtendedLifetime(session) { output.isResponsiveCaptureEnabled = true }
        }
        #expect(ExceptionExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput setResponsiveCaptureEnabled:] responsiveCaptureSupported is NO'"))
    }

    @Test func fastCapturePrioritizationNeedsResponsiveCapture() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            withExtendedLifetime(session) { output.isFastCapturePrioritizationEnabled = true }
        }
        #expect(ExceptionExitTests.message(result).contains(
            "-[AVCapturePhotoOutput setFastCapturePrioritizationEnabled:] fastCapturePrioritizationSupported is NO"))
    }

    @Test func zeroShutterLagWithoutACamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isZeroShutterLagEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoOutput setZeroShutterLagEnabled:] zeroShutterLagSupported is NO"))
    }
}
