// Captures from the default simulated camera at 1280x720 in real time, as an iOS app would,
// and fails (exit 1) unless every frame is accounted for: delivered, or reported through
// didDrop with its reason, in order on the frame-duration grid of the host clock, and the
// stream goes on delivering. It passes on a busy machine (a loaded one drops frames, and says
// so): how many frames were delivered and dropped is printed, a figure, not a condition.
// Then, at .photo, .high and .hd1280x720, it prints the waits a user sees (WaitTimes.swift):
// startRunning(), capturePhoto to the photo's data, and a switch to the front camera. Last,
// the app programs run: RecorderApp, PhotoApp, ScannerApp and WriterApp (twice: as it is and in
// Display P3).
import AVFoundation
import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import QuartzCore
import Synchronization

// AVCam's CaptureExtensions.swift, verbatim: outside OpenCapture's package these
// conformances are retroactive, as on Apple platforms, so they must compile.
extension CMVideoDimensions: @retroactive Equatable, @retroactive Comparable {
    static let zero = CMVideoDimensions()

    public static func == (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
    }

    public static func < (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width < rhs.width && lhs.height < rhs.height
    }
}

/// What the delegate heard, in order: each frame's timestamp, and each drop's with its reason.
final class Counter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, Sendable {
    enum Event { case frame(CMTime), drop(CMTime, String) }
    struct Tally { var events: [Event] = [], frames = 0, width = 0, height = 0 }
    let tally = Mutex(Tally())
    let firstFrame = DispatchSemaphore(value: 0)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let width = CVPixelBufferGetWidth(pixels), height = CVPixelBufferGetHeight(pixels)
        let isFirst = tally.withLock {
            $0.events.append(.frame(CMSampleBufferGetPresentationTimeStamp(sampleBuffer)))
            $0.frames += 1; $0.width = width; $0.height = height
            return $0.frames == 1
        }
        if isFirst { firstFrame.signal() }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "no reason"
        tally.withLock { $0.events.append(.drop(CMSampleBufferGetPresentationTimeStamp(sampleBuffer), reason)) }
    }
}

/// Checks that every frame between the first and last delivered is accounted for: delivered
/// frames on the grid of `step` seconds, in order, and as many drops heard between two of
/// them as grid steps were skipped. Returns what broke, and the drops by reason.
func account(_ events: [Counter.Event], step: Double) -> (problems: [String], drops: [String: Int]) {
    var problems: [String] = [], drops: [String: Int] = [:]
    var last: CMTime?, heard = 0
    for event in events {
        switch event {
        case .drop(_, let reason):
            drops[reason, default: 0] += 1
            heard += 1
        case .frame(let time):
            defer { last = time; heard = 0 }
            guard let last else { continue }
            let gap = (time - last).seconds, steps = (gap / step).rounded()
            if steps < 1 || abs(gap - steps * step) > 1e-6 {
                problems.append("frame at \(time.seconds) s after \(last.seconds) s: not on the \(step) s grid")
            } else if Int(steps) - 1 != heard {
                problems.append("\(Int(steps) - 1) frames missing before \(time.seconds) s, \(heard) drops reported")
            }
        }
    }
    return (problems, drops)
}

/// CPU time this process has used (all threads, user and system), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
}

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 5
guard let camera = AVCaptureDevice.default(for: .video) else {
    print("consumer: no default camera"); exit(1)
}
let session = AVCaptureSession()
session.sessionPreset = .hd1280x720
session.addInput(try AVCaptureDeviceInput(device: camera))
let output = AVCaptureVideoDataOutput()
let counter = Counter()
output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "consumer.frames"))
session.addOutput(output)
session.startRunning()
// The first frame marks the start: what comes after it is paced by the camera's clock.
guard counter.firstFrame.wait(timeout: .now() + 30) == .success else {
    print("consumer: no frame within 30 s"); exit(1)
}
let (framesBefore, heardBefore) = counter.tally.withLock { ($0.frames, $0.events.count) }
let cpuBefore = cpuSeconds()
usleep(UInt32(seconds * 1_000_000))
let cpu = cpuSeconds() - cpuBefore
let last = counter.tally.withLock { $0 }
session.stopRunning()
let stoppedAt = CMClockGetTime(CMClockGetHostTimeClock())

let frameDuration = camera.activeVideoMinFrameDuration
let (problems, drops) = account(last.events, step: frameDuration.seconds)
let times = last.events.compactMap { event -> CMTime? in if case .frame(let time) = event { time } else { nil } }
let dropped = drops.values.reduce(0, +)
let reasons = drops.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
print("consumer: \(camera.localizedName) \(last.width)x\(last.height), \(times.count) frames delivered and \(dropped) dropped\(dropped > 0 ? " (\(reasons))" : "") "
    + "in \(seconds) s at \(1 / frameDuration.seconds) fps")
for problem in problems { print("consumer: not accounted for: \(problem)") }
// The stream went on after its first frames, and no timestamp lies ahead of the host clock.
let running = last.frames > framesBefore
let onTheClock = times.last.map { $0 <= stoppedAt } ?? false
if !running { print("consumer: no frame came in the \(seconds) s after the first") }
if !onTheClock { print("consumer: a frame stamped after the stream stopped (\(stoppedAt.seconds) s): not on the host clock") }
// What a busy machine does not change: the CPU time a frame costs. A debug build that could
// not keep the frame rate on a core of its own (before the pixel kernels were pre-generated
// assembly, 175 ms a frame) fails here however idle the machine; skipped frames cost nothing.
let made = last.events[heardBefore...].filter { if case .drop(_, let reason) = $0 { reason != kCMSampleBufferDroppedFrameReason_Discontinuity } else { true } }.count
let cpuPerFrame = cpu / Double(max(made, 1))
let affordable = cpuPerFrame < frameDuration.seconds
print(String(format: "consumer: %.1f ms of CPU a frame made (%d frames in the %.0f s), the frame duration %.1f ms", cpuPerFrame * 1000, made, seconds, frameDuration.seconds * 1000))
if !affordable { print("consumer: a frame costs more CPU than its duration: this build cannot keep real time") }
// The other modules the AVFoundation product brings, as an app's photo code uses them.
let orientation = CGImagePropertyOrientation(rawValue: 6)
let turned = CGAffineTransform(rotationAngle: .pi / 2).isIdentity
let modules = orientation == .right && !turned && kCGImagePropertyOrientation as String == "Orientation"
// The waits of issue 30 (WaitTimes.swift), printed: figures, not conditions.
var waitsBehave = true
for preset: AVCaptureSession.Preset in [.photo, .high, .hd1280x720] {
    let waits = try measureWaits(at: preset)
    print(waits.line)
    for problem in waits.problems { print("consumer: \(preset.rawValue): \(problem)") }
    waitsBehave = waitsBehave && waits.problems.isEmpty
}
// Programs written as open-source iOS camera libraries are (issue 30), each asserting what
// its user sees; the first that fails exits 1 with one line saying what failed.
runRecorderApp()
runPhotoApp()
runScannerApp()
runWriterApp(displayP3: false)
runWriterApp(displayP3: true)
exit(last.width == 1280 && last.height == 720 && problems.isEmpty && running && onTheClock && affordable && modules && waitsBehave ? 0 : 1)
