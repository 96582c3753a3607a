import CPipeWireRuntime
import CaptureCore
import Foundation
import PipeWireCamera
import Synchronization
import Testing
import TestSupport

/// The virtual camera (Sources/PipeWireCamera/PipeWireVirtualCamera.swift, the plug-in's
/// Publisher.c) read by GStreamer's pipewiresrc on a daemon of the test's own: the node's
/// class and role, frames byte for byte in the format each reader negotiates, two readers at
/// once, one killed mid-stream while the other and a newcomer go on, and a slow reader that
/// loses frames, counted, without holding the pushing thread.
///
/// Readers write with `filesink buffer-mode=unbuffered`: by default filesink keeps buffers
/// until 64 KiB are queued, and a 64x48 frame is 4.5 KiB, so it would hold every buffer the
/// node has (and the node would rightly send nothing more).
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled))
struct PipeWireVirtualCameraTests {
    static let width = 64, height = 48

    /// An NV12 picture with a different value in every sample of a row.
    static func picture() -> CVPixelBuffer {
        let pool = CVPixelBufferPool(format: .yuv420BiPlanarVideoRange, width: width, height: height, minimumBufferCount: 1, maximumBufferCount: 1)
        let buffer = pool.dequeue()!
        for row in 0..<height {
            let line = buffer.planeAddress(0).advanced(by: row * buffer.bytesPerRow(0)).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width { line[x] = UInt8(truncatingIfNeeded: 16 + x * 3 + row) }
        }
        for row in 0..<height / 2 {
            let line = buffer.planeAddress(1).advanced(by: row * buffer.bytesPerRow(1)).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width / 2 {
                line[2 * x] = UInt8(64 + x)
                line[2 * x + 1] = UInt8(192 - row)
            }
        }
        return buffer
    }

    /// The picture's bytes as a reader of `format` receives them (rows a multiple of 4 bytes
    /// at this width, so no padding), planes one after the other.
    static func expected(_ format: String) -> [UInt8] {
        let luma = { (x: Int, row: Int) in UInt8(truncatingIfNeeded: 16 + x * 3 + row) }
        let cb = { (x: Int) in UInt8(64 + x) }, cr = { (row: Int) in UInt8(192 - row) }
        let lumaPlane = (0..<height).flatMap { row in (0..<width).map { luma($0, row) } }
        switch format {
        case "I420":
            return lumaPlane + (0..<height / 2).flatMap { _ in (0..<width / 2).map(cb) }
                + (0..<height / 2).flatMap { row in (0..<width / 2).map { _ in cr(row) } }
        case "YUY2":
            return (0..<height).flatMap { row in (0..<width / 2).flatMap { [luma(2 * $0, row), cb($0), luma(2 * $0 + 1, row), cr(row / 2)] } }
        default:
            return lumaPlane + (0..<height / 2).flatMap { row in (0..<width / 2).flatMap { [cb($0), cr(row)] } }
        }
    }

    /// Pushes the picture every 5 ms until stopped, as a session's frames would come.
    final class Pusher: @unchecked Sendable {
        private let stopped = Atomic<Bool>(false)
        private let done = DispatchSemaphore(value: 0)
        /// Pushes made, taken or not: the pushing thread is never held.
        let pushes = Atomic<Int>(0)

        init(_ camera: PipeWireVirtualCamera) {
            let picture = PipeWireVirtualCameraTests.picture()
            Thread { [self] in
                var sequence: Int64 = 0
                while !stopped.load(ordering: .acquiring) {
                    camera.push(picture, sequence: sequence, presentationTime: CMClockGetTime(CMClockGetHostTimeClock()).value)
                    sequence += 1
                    pushes.add(1, ordering: .relaxed)
                    usleep(5000)
                }
                done.signal()
            }.start()
        }

        /// Stops the pushing thread and waits for it (once; later calls return at once).
        func stop() {
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            done.wait()
        }
    }

    /// A pipewiresrc named `name` reading `frames` frames (-1: until killed) of `format`
    /// into a file of the test's, through `filter` (gst-launch words) when given.
    func reader(_ daemon: PipeWireDaemon, name: String, format: String, frames: Int, filter: [String] = []) throws -> (ChildProcess, URL) {
        let file = daemon.directory.appendingPathComponent("\(name).raw")
        let process = try daemon.gstreamer(
            ["pipewiresrc", "stream-properties=props,node.name=\(name)", "num-buffers=\(frames)", "!",
             "video/x-raw,format=\(format),width=\(Self.width),height=\(Self.height)", "!"]
                + filter + ["filesink", "buffer-mode=unbuffered", "location=\(file.path)"])
        return (process, file)
    }

    /// Checks the file holds `frames` frames (at least, when `atLeast`), each the picture as
    /// `format` carries it.
    func check(_ file: URL, frames: Int, format: String, atLeast: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        let frame = Self.expected(format)
        if atLeast {
            #expect(bytes.count >= frames * frame.count, "\(bytes.count) bytes", sourceLocation: sourceLocation)
        } else {
            #expect(bytes.count == frames * frame.count, "\(bytes.count) bytes", sourceLocation: sourceLocation)
        }
        for index in 0..<bytes.count / frame.count {
            #expect(Array(bytes[index * frame.count..<(index + 1) * frame.count]) == frame, "frame \(index)", sourceLocation: sourceLocation)
        }
    }

    func fileSize(_ file: URL) -> Int { (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0 }

    @Test func readersGetThePictureInTheFormatTheyChose() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let camera = try PipeWireVirtualCamera(
            remote: daemon.socket, name: "oc-virtual", description: "OpenCapture test", width: Self.width, height: Self.height, frameRate: 30)
        defer { camera.close() }
        let node = try #require(daemon.waitForNode(named: "oc-virtual"))
        #expect(node.mediaClass == "Video/Source")
        #expect(node.role == "Camera")
        #expect(node.id == Int(camera.nodeID))
        // Nobody reads yet: a push is not taken, and nothing is lost.
        #expect(!camera.push(Self.picture(), sequence: 0, presentationTime: 0))
        #expect(camera.droppedCount == 0)

        let pusher = Pusher(camera)
        defer { pusher.stop() }
        for format in ["NV12", "I420", "YUY2"] {
            let (process, file) = try reader(daemon, name: "oc-reader-\(format)", format: format, frames: 10)
            try daemon.link(output: "oc-virtual", input: "oc-reader-\(format)")
            let outcome = try process.wait(within: .seconds(60))
            #expect(outcome.succeeded, "\(format): \(outcome.stderr)")
            try check(file, frames: 10, format: format)
        }
        #expect(camera.sentCount >= 30)
    }

    @Test func twoReadersAtOnceAndOneKilledMidStream() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let camera = try PipeWireVirtualCamera(
            remote: daemon.socket, name: "oc-virtual", description: "OpenCapture test", width: Self.width, height: Self.height, frameRate: 30)
        defer { camera.close() }
        _ = try #require(daemon.waitForNode(named: "oc-virtual"))
        let pusher = Pusher(camera)
        defer { pusher.stop() }

        // One reader that never ends by itself, one that reads 30 frames; both at once.
        let (endless, endlessFile) = try reader(daemon, name: "oc-endless", format: "NV12", frames: -1)
        defer { endless.kill() }
        try daemon.link(output: "oc-virtual", input: "oc-endless")
        let frameBytes = Self.expected("NV12").count
        eventually("the endless reader got frames") { fileSize(endlessFile) >= 3 * frameBytes }
        let (finite, finiteFile) = try reader(daemon, name: "oc-finite", format: "NV12", frames: 30)
        try daemon.link(output: "oc-virtual", input: "oc-finite")
        eventually("the second reader got frames while the first reads") { fileSize(finiteFile) >= frameBytes }
        let before = fileSize(endlessFile)
        eventually("the first reader still gets frames") { fileSize(endlessFile) > before }

        // The first is killed mid-stream; the second reads on to its 30 frames.
        endless.kill()
        let outcome = try finite.wait(within: .seconds(60))
        #expect(outcome.succeeded, "\(outcome.stderr)")
        try check(finiteFile, frames: 30, format: "NV12")
        try check(endlessFile, frames: 3, format: "NV12", atLeast: true)

        // A newcomer after both left still gets the picture.
        let (late, lateFile) = try reader(daemon, name: "oc-late", format: "NV12", frames: 5)
        try daemon.link(output: "oc-virtual", input: "oc-late")
        let lateOutcome = try late.wait(within: .seconds(60))
        #expect(lateOutcome.succeeded, "\(lateOutcome.stderr)")
        try check(lateFile, frames: 5, format: "NV12")
    }

    /// One format at a time: every reader shares the node's one port. A reader that wants
    /// another format than the one in use is refused (not-negotiated); the first reads on.
    @Test func aSecondReaderOfAnotherFormatIsRefusedAndTheFirstGoesOn() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let camera = try PipeWireVirtualCamera(
            remote: daemon.socket, name: "oc-virtual", description: "OpenCapture test", width: Self.width, height: Self.height, frameRate: 30)
        defer { camera.close() }
        _ = try #require(daemon.waitForNode(named: "oc-virtual"))
        let pusher = Pusher(camera)
        defer { pusher.stop() }

        let (first, firstFile) = try reader(daemon, name: "oc-first", format: "NV12", frames: -1)
        defer { first.kill() }
        try daemon.link(output: "oc-virtual", input: "oc-first")
        let frameBytes = Self.expected("NV12").count
        eventually("the first reader got frames") { fileSize(firstFile) >= frameBytes }
        let (other, _) = try reader(daemon, name: "oc-other", format: "I420", frames: 5)
        try daemon.link(output: "oc-virtual", input: "oc-other")
        let refused = try other.wait(within: .seconds(60))
        #expect(!refused.succeeded)
        #expect(refused.stderr.contains("not-negotiated"), "\(refused.stderr)")
        #expect(camera.negotiatedFormat == Int32(OCPW_FORMAT_NV12.rawValue))
        let before = fileSize(firstFile)
        eventually("the first reader reads on") { fileSize(firstFile) >= before + 3 * frameBytes }
        first.kill()
        try check(firstFile, frames: 3, format: "NV12", atLeast: true)
    }

    @Test func aSlowReaderLosesFramesCountedAndTheStreamGoesOn() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let camera = try PipeWireVirtualCamera(
            remote: daemon.socket, name: "oc-virtual", description: "OpenCapture test", width: Self.width, height: Self.height, frameRate: 30)
        defer { camera.close() }
        _ = try #require(daemon.waitForNode(named: "oc-virtual"))
        let pusher = Pusher(camera)
        defer { pusher.stop() }

        // 100 ms per frame: the reader keeps every buffer the node has for most of the time.
        let (slow, slowFile) = try reader(daemon, name: "oc-slow", format: "NV12", frames: 8, filter: ["identity", "sleep-time=100000", "!"])
        try daemon.link(output: "oc-virtual", input: "oc-slow")
        let outcome = try slow.wait(within: .seconds(60))
        #expect(outcome.succeeded, "\(outcome.stderr)")
        try check(slowFile, frames: 8, format: "NV12")
        // Frames the reader had no room for were dropped and counted, each frame once: sent or
        // dropped (or still waiting in the slot), never both.
        pusher.stop()
        #expect(camera.droppedCount > 0)
        #expect(Int(camera.sentCount + camera.droppedCount) <= pusher.pushes.load(ordering: .relaxed))
    }
}
