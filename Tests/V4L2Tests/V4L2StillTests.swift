import CaptureCore
import Foundation
import Testing
import TestSupport
@testable import V4L2Camera

/// A V4L2 camera's stills on frames fed by hand (no device): which frame a still is, the
/// zero-shutter-lag history, failures, and the exposure its metadata reports.
@Suite("V4L2 stills")
struct V4L2StillTests {
    /// Control values as a driver keeps them.
    final class FakeDriver: V4L2ControlAccess, @unchecked Sendable {
        let values: Mutex<[UInt32: Int64]>
        init(_ values: [UInt32: Int64]) { self.values = Mutex(values) }
        func value(of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
            guard let value = values.withLock({ $0[id] }) else { throw V4L2Failure("VIDIOC_G_EXT_CTRLS", 22) }
            return value
        }
        func setValue(_ value: Int64, of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
            values.withLock { $0[id] = value }
            return value
        }
    }

    /// Completions in the order they came.
    final class Results: @unchecked Sendable {
        private let results = Mutex<[Result<StillCapture, BackendError>]>([])
        func add(_ result: Result<StillCapture, BackendError>) { results.withLock { $0.append(result) } }
        var all: [Result<StillCapture, BackendError>] { results.withLock { $0 } }
        func waitFor(_ count: Int) -> [Result<StillCapture, BackendError>] {
            eventually("\(count) stills completed") { all.count >= count }
            return all
        }
    }

    static let exposureControls: [V4L2ControlInfo] = [
        V4L2ControlInfo(id: V4L2ControlID.exposureTimeAbsolute, name: "Exposure Time, Absolute", type: 1, minimum: 3, maximum: 2047, step: 1, defaultValue: 250, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.gain, name: "Gain", type: 1, minimum: 0, maximum: 255, step: 1, defaultValue: 64, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.autoWhiteBalance, name: "White Balance, Automatic", type: 2, minimum: 0, maximum: 1, step: 1, defaultValue: 1, flags: 0),
    ]
    static let driver = FakeDriver([V4L2ControlID.exposureTimeAbsolute: 156, V4L2ControlID.gain: 96, V4L2ControlID.autoWhiteBalance: 0])

    /// A 64x32 video-range NV12 frame of one luma.
    static func frame(luma: UInt8) -> CVBuffer {
        let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 32)
        memset(buffer.planeAddress(0), Int32(luma), buffer.bytesPerRow(0) * 32)
        memset(buffer.planeAddress(1), 128, buffer.bytesPerRow(1) * 16)
        buffer.attachmentStore.withLock { $0 = [kCVImageBufferYCbCrMatrixKey: kCVImageBufferYCbCrMatrix_ITU_R_601_4] }
        return buffer
    }

    static func metadata(_ sequence: Int64, at time: Int64) -> FrameMetadata {
        var metadata = FrameMetadata()
        metadata.sequence = sequence
        metadata.presentationTime = CMTime(value: time, timescale: 1_000_000_000)
        metadata.frameDuration = CMTime(value: 1, timescale: 30)
        metadata.width = 64
        metadata.height = 32
        return metadata
    }

    static func now() -> Int64 { CMClockGetTime(CMClockGetHostTimeClock()).value }

    static func luma(_ buffer: CVBuffer) -> UInt8 { buffer.planeAddress(0).load(fromByteOffset: 5 * buffer.bytesPerRow(0) + 7, as: UInt8.self) }

    static let request = StillRequest(width: 64, height: 32, pixelFormat: .yuv420BiPlanarFullRange, flash: false)

    @Test func stillIsTheFirstFrameTimestampedAtOrAfterTheRequest() throws {
        let taker = V4L2StillTaker(controls: Self.exposureControls)
        taker.open()
        let results = Results()
        let before = Self.now() - 1_000_000
        #expect(taker.add(Self.request) { results.add($0) })
        // Timestamped before the request (dequeued after it): not the still.
        taker.frameArrived(Self.frame(luma: 50), metadata: Self.metadata(1, at: before), device: Self.driver)
        taker.frameArrived(Self.frame(luma: 126), metadata: Self.metadata(2, at: Self.now() + 1), device: Self.driver)
        let still = try #require(results.waitFor(1).first).get()
        #expect(results.all.count == 1)
        #expect(still.metadata.sequence == 2 && !still.fromRecentFrames)
        #expect(still.buffer.format == .yuv420BiPlanarFullRange && still.buffer.width == 64 && still.buffer.height == 32)
        // Video-range 126 is full-range (126 - 16) × 255 / 219 ≈ 128.
        #expect(abs(Int(Self.luma(still.buffer)) - 128) <= 1)
        // The frame's BT.601 tag goes with it: the JPEG encoder would take an untagged still for BT.709.
        #expect(still.buffer.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] as? String } == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        // What the driver says it did: exposure 156 × 100 µs, gain 96 of default 64, white balance off.
        #expect(still.metadata.exposureDuration == 0.0156)
        #expect(still.metadata.iso == 150)
        #expect(still.metadata.whiteBalanceState == .locked)
    }

    @Test func zeroShutterLagTakesTheNewestKeptFrameBeforeTheRequest() throws {
        let taker = V4L2StillTaker(controls: Self.exposureControls)
        taker.open()
        let owner = ObjectIdentifier(Results.self)
        taker.recentFrames.keep(true, for: owner)
        let start = Self.now()
        let frames = (1...3).map { Self.frame(luma: UInt8(40 + 30 * $0)) }
        for (index, frame) in frames.enumerated() {
            taker.frameArrived(frame, metadata: Self.metadata(Int64(index + 1), at: start - Int64(30 - 10 * index) * 1_000_000), device: Self.driver)
        }
        #expect(taker.recentFrameBytes >= 3 * frames[0].byteCount)
        // The driver refills its buffers: the history must hold copies. (The buffer is kept
        // alive over the memset: its address alone does not keep it.)
        withExtendedLifetime(frames) { _ = memset(frames[2].planeAddress(0), 16, frames[2].bytesPerRow(0) * 32) }
        let results = Results()
        var request = Self.request
        request.zeroShutterLag = true
        request.pixelFormat = .yuv420BiPlanarVideoRange
        #expect(taker.add(request) { results.add($0) })
        taker.frameArrived(Self.frame(luma: 200), metadata: Self.metadata(4, at: Self.now() + 1), device: Self.driver)
        let still = try #require(results.waitFor(1).first).get()
        #expect(still.metadata.sequence == 3 && still.fromRecentFrames)
        #expect(Self.luma(still.buffer) == 130)
        taker.recentFrames.keep(false, for: owner)
        taker.frameArrived(Self.frame(luma: 200), metadata: Self.metadata(5, at: Self.now()), device: Self.driver)
        #expect(taker.recentFrameBytes == 0)
    }

    @Test func closingFailsWaitingStillsAndRefusesNewOnes() throws {
        let taker = V4L2StillTaker(controls: [])
        let results = Results()
        #expect(!taker.add(Self.request) { results.add($0) }, "not streaming yet")
        taker.open()
        #expect(taker.add(Self.request) { results.add($0) })
        taker.close(.deviceWasDisconnected)
        #expect(results.all.count == 1)
        #expect(throws: BackendError.deviceWasDisconnected) { try results.all[0].get() }
        #expect(!taker.add(Self.request) { results.add($0) })
        taker.frameArrived(Self.frame(luma: 90), metadata: Self.metadata(1, at: Self.now() + 1), device: Self.driver)
        #expect(results.all.count == 1)
    }

    @Test func stillLargerThanTheStreamFails() throws {
        let taker = V4L2StillTaker(controls: [])
        taker.open()
        let results = Results()
        var request = Self.request
        request.width = 128
        #expect(taker.add(request) { results.add($0) })
        taker.frameArrived(Self.frame(luma: 90), metadata: Self.metadata(1, at: Self.now() + 1), device: Self.driver)
        #expect(throws: BackendError.streamFailed("a 128x32 still is larger than the 64x32 stream")) { try results.waitFor(1)[0].get() }
    }

    /// Without an exposure control the frame interval; ISO from iso_sensitivity's menu (ISO × 1000).
    @Test func exposureFallsBackToTheFrameIntervalAndISOComesFromTheMenu() {
        let controls = [
            V4L2ControlInfo(id: V4L2ControlID.isoSensitivity, name: "ISO Sensitivity", type: 9, minimum: 0, maximum: 2, step: 1, defaultValue: 0, flags: 0,
                            menu: [(0, "100000"), (1, "200000"), (2, "400000")]),
        ]
        var metadata = Self.metadata(1, at: 0)
        V4L2StillExposure.describe(&metadata, controls: controls, device: FakeDriver([V4L2ControlID.isoSensitivity: 1]))
        #expect(abs(metadata.exposureDuration - 1.0 / 30) < 1e-12)
        #expect(metadata.iso == 200)
        var plain = Self.metadata(1, at: 0)
        V4L2StillExposure.describe(&plain, controls: [], device: FakeDriver([:]))
        #expect(plain.iso == 100 && plain.whiteBalanceState == .continuous)
    }
}
