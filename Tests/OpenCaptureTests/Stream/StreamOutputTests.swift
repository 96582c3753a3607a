import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records a stream output's state changes and drop reports.
final class StreamEvents: NSObject, AVCaptureStreamOutputDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.stream")
    let states = Mutex<[(AVCaptureStreamOutput.State, AVCaptureStreamOutput.StreamError?)]>([])
    let drops = Mutex<(frames: Int, audio: Int, calls: Int)>((0, 0, 0))

    func streamOutput(_ output: AVCaptureStreamOutput, didChange state: AVCaptureStreamOutput.State, error: AVCaptureStreamOutput.StreamError?) {
        dispatchPrecondition(condition: .onQueue(queue))
        states.withLock { $0.append((state, error)) }
    }

    func streamOutput(_ output: AVCaptureStreamOutput, didDropFrames frames: Int, audioBuffers: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        drops.withLock { $0 = ($0.frames + frames, $0.audio + audioBuffers, $0.calls + 1) }
    }

    func saw(_ state: AVCaptureStreamOutput.State) -> Bool { states.withLock { $0.contains { $0.0 == state } } }

    /// The first change to `state` after the stream first streamed (an early receiver may
    /// make the first attempts fail before).
    func afterStreaming(_ state: AVCaptureStreamOutput.State) -> (AVCaptureStreamOutput.State, AVCaptureStreamOutput.StreamError?)? {
        states.withLock { list in
            guard let start = list.firstIndex(where: { $0.0 == .streaming }) else { return nil }
            return list[start...].first { $0.0 == state }
        }
    }
}

/// A simulated camera at 352x288, 30 frames/s in real time (a stream is paced by the
/// network, not by its consumer), streaming to `url`. Stops when it goes away.
final class StreamRig {
    let session = AVCaptureSession()
    let output = AVCaptureStreamOutput()
    let events = StreamEvents()
    let device: AVCaptureDevice

    init(microphone: Bool = false, configure: (AVCaptureStreamOutput) -> Void = { _ in }) throws {
        device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .realTime
        device.simulation?.seed = 3
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        if microphone {
            let mic = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
            session.addInput(try AVCaptureDeviceInput(device: mic))
        }
        session.addOutput(output)
        output.reconnectDelay = 0.05
        output.maximumReconnectDelay = 0.2
        output.connectionTimeout = 3
        output.setDelegate(events, queue: events.queue)
        configure(output)
    }

    func start(_ url: String) throws {
        try output.startStreaming(to: try #require(URL(string: url)))
        session.startRunning()
    }

    deinit {
        output.stopStreaming()
        session.stopRunning()
    }
}

@Suite("AVCaptureStreamOutput", .serialized, .tags(.slow))
struct StreamOutputTests {
    @Test("malformed URLs, other schemes and WHIP are refused with one line")
    func refusesBadURLs() throws {
        let output = AVCaptureStreamOutput()
        for (text, words) in [
            ("whip://127.0.0.1:8080/whip", "whip muxer"), ("https://example.com/whip", "WHIP"), ("ftp://host/x", "unsupported"),
            ("srt://127.0.0.1", "port"), ("srt://127.0.0.1:9000?mode=sideways", "mode"), ("rtsp://127.0.0.1:554", "path"),
            ("rtmp:///live", "host"),
        ] {
            let url = try #require(URL(string: text))
            #expect {
                try output.startStreaming(to: url)
            } throws: { error in
                guard let error = error as? AVCaptureStreamOutput.StreamError else { return false }
                return error.code == .invalidURL && error.message.contains(words) && !error.message.contains("\n")
            }
        }
        #expect(output.state == .idle && !output.isStreaming)
    }

    @Test("the output takes the camera and the microphone, one connection each")
    func connectsCameraAndMicrophone() throws {
        let rig = try StreamRig(microphone: true)
        #expect(rig.output.connections.count == 2)
        #expect(rig.output.connection(with: .video) != nil && rig.output.connection(with: .audio) != nil)
        #expect(rig.output.availableVideoCodecTypes.contains(.h264))
    }

    @Test("RTSP push: ffprobe listening reads H.264 at 352x288, 30 frames/s, from a keyframe, with AAC")
    func rtspToListener() throws {
        let port = freeLoopbackPort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        let probe = try LiveProbe.receiver(url, options: ["-rtsp_flags", "listen"])
        #expect(waitForListener(onPort: port), "the receiver never listened on \(port)")
        let rig = try StreamRig(microphone: true)
        try rig.start(url)
        let data = try #require(probe.waitForOutput())
        let info = try #require(LiveProbe(data))
        #expect(info.codec == "h264" && info.width == 352 && info.height == 288)
        #expect(abs(info.frameRate - 30) < 0.5)
        #expect(info.firstPacketIsKey)
        #expect(info.audioCodec == "aac")
        #expect(rig.output.connectionCount >= 1 && rig.events.saw(.streaming))
    }

    @Test("SRT caller: ffprobe as the SRT listener reads HEVC at 352x288")
    func srtCallerToListener() throws {
        let port = freeLoopbackPort(udp: true)
        let probe = try LiveProbe.receiver("srt://127.0.0.1:\(port)?mode=listener", options: [])
        #expect(waitForListener(onPort: port, udp: true), "the receiver never bound \(port)")
        let rig = try StreamRig { $0.videoCodecType = .hevc }
        try rig.start("srt://127.0.0.1:\(port)?mode=caller&connect_timeout=500")
        let data = try #require(probe.waitForOutput())
        let info = try #require(LiveProbe(data))
        #expect(info.codec == "hevc" && info.width == 352 && info.height == 288)
        #expect(abs(info.frameRate - 30) < 0.5)
        #expect(info.firstPacketIsKey)
    }

    @Test("SRT listener: ffprobe calls in and reads H.264")
    func srtListenerWithCaller() throws {
        let port = freeLoopbackPort(udp: true)
        let rig = try StreamRig()
        try rig.start("srt://127.0.0.1:\(port)?mode=listener")
        // The listener opens with the first frame; a caller that came too early is retried.
        var info: LiveProbe?
        for _ in 0..<20 where info == nil {
            let probe = try LiveProbe.receiver("srt://127.0.0.1:\(port)?mode=caller&connect_timeout=300", options: [], seconds: 5)
            info = probe.waitForOutput().flatMap(LiveProbe.init)
        }
        let read = try #require(info)
        #expect(read.codec == "h264" && read.width == 352 && read.height == 288 && read.firstPacketIsKey)
    }

    @Test("RTMP: ffprobe listening reads H.264 in FLV, turned as the connection asks (288x352)")
    func rtmpToListener() throws {
        let port = freeLoopbackPort()
        let url = "rtmp://127.0.0.1:\(port)/live/camera"
        let probe = try LiveProbe.receiver(url, options: ["-listen", "1"])
        #expect(waitForListener(onPort: port), "the receiver never listened on \(port)")
        let rig = try StreamRig()
        rig.output.connection(with: .video)?.videoRotationAngle = 90
        try rig.start(url)
        let data = try #require(probe.waitForOutput())
        let info = try #require(LiveProbe(data))
        #expect(info.codec == "h264" && info.width == 288 && info.height == 352 && info.firstPacketIsKey)
    }

    @Test("a receiver killed mid-stream: the publisher reports the loss, retries, and the next receiver starts on a keyframe")
    func reconnectsAfterReceiverDies() throws {
        let port = freeLoopbackPort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        let first = try StreamReceiver("ffmpeg", ["-v", "error", "-rtsp_flags", "listen", "-i", url, "-f", "null", "-"])
        #expect(waitForListener(onPort: port), "the receiver never listened on \(port)")
        let rig = try StreamRig()
        try rig.start(url)
        try #require(eventually("the first connection streams") { rig.output.state == .streaming && rig.output.sentFrameCount > 3 })
        first.kill()
        try #require(eventually("the loss is reported") { rig.events.afterStreaming(.reconnecting) != nil })
        let lost = rig.events.afterStreaming(.reconnecting)?.1
        #expect(lost?.code == .connectionLost)
        let second = try LiveProbe.receiver(url, options: ["-rtsp_flags", "listen"])
        let data = try #require(second.waitForOutput())
        let info = try #require(LiveProbe(data))
        #expect(info.firstPacketIsKey && info.codec == "h264")
        #expect(rig.output.connectionCount >= 2)
    }

    @Test("nobody listening: the failure is reported, retried with back-off, and stopStreaming ends it")
    func unreachableRetries() throws {
        let rig = try StreamRig()
        try rig.start("rtsp://127.0.0.1:\(freeLoopbackPort())/live")
        try #require(eventually("two failed attempts") {
            rig.events.states.withLock { $0.filter { $0.0 == .reconnecting }.count >= 2 }
        })
        #expect(rig.output.lastError?.code == .connectionFailed)
        #expect(rig.output.connectionCount == 0)
        rig.output.stopStreaming()
        #expect(rig.output.state == .idle && !rig.output.isStreaming)
    }

    @Test("a slow network: the queue keeps the newest frames, drops the oldest and reports them")
    func dropsOldestUnderCongestion() throws {
        let port = freeLoopbackPort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        let receiver = try StreamReceiver("ffmpeg", ["-v", "error", "-rtsp_flags", "listen", "-i", url, "-f", "null", "-"])
        #expect(waitForListener(onPort: port), "the receiver never listened on \(port)")
        defer { receiver.kill() }
        let rig = try StreamRig {
            $0.maximumQueuedFrames = 2
            $0.publisher.sendDelay = 0.1  // each frame takes 100 ms to send: 10 frames/s of 30
        }
        try rig.start(url)
        try #require(eventually("drops are reported") { rig.events.drops.withLock { $0.frames } >= 5 })
        #expect(rig.output.droppedFrameCount >= rig.events.drops.withLock { $0.frames })
        #expect(rig.output.state == .streaming)
    }

    @Test("a receiver that stops reading: the socket fills, the queue drops the oldest and says so, and sending resumes when it reads again")
    func dropsOldestWhenTheSocketFills() throws {
        let port = freeLoopbackPort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        let receiver = try StreamReceiver("ffmpeg", ["-v", "error", "-rtsp_flags", "listen", "-i", url, "-f", "null", "-"], seconds: 40)
        #expect(waitForListener(onPort: port), "the receiver never listened on \(port)")
        defer { receiver.kill() }
        // 720p at 8 Mbit/s: loopback's socket buffers (a few MB) fill in a few seconds.
        let rig = try StreamRig {
            $0.maximumQueuedFrames = 2
            $0.averageBitRate = 8_000_000
        }
        rig.session.sessionPreset = .hd1280x720
        try rig.start(url)
        try #require(eventually("streaming") { rig.output.state == .streaming && rig.output.sentFrameCount > 10 })
        // (Frames captured while the connection opened may have been dropped already.)
        let before = rig.events.drops.withLock { $0.frames }
        receiver.signalTool(SIGSTOP)
        try #require(eventually("the full socket makes the queue drop", within: .seconds(30)) { rig.events.drops.withLock { $0.frames } >= before + 10 })
        #expect(rig.output.state == .streaming, "a full socket is congestion, not a lost connection")
        let sentWhileFull = rig.output.sentFrameCount
        receiver.signalTool(SIGCONT)
        #expect(eventually("sending resumes") { rig.output.sentFrameCount >= sentWhileFull + 30 })
        #expect(rig.output.state == .streaming && rig.output.connectionCount == 1)
        #expect(rig.output.droppedFrameCount >= rig.events.drops.withLock { $0.frames })
    }
}
