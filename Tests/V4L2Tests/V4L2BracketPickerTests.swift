import CaptureCore
import Foundation
import Testing
@testable import V4L2Camera

/// Which frame of the stream a bracket still is, from the frames' own brightness (no device).
@Suite("V4L2 bracket picker")
struct V4L2BracketPickerTests {
    /// An NV12 frame of even luma `level`, stamped `time` ns.
    static func frame(_ level: UInt8, at time: Int64) -> (CVBuffer, FrameMetadata) {
        let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 32)
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!
        memset(base, Int32(level), CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) * 32)
        CVPixelBufferUnlockBaseAddress(buffer, [])
        var metadata = FrameMetadata()
        metadata.presentationTime = CMTime(value: time, timescale: 1_000_000_000)
        return (buffer, metadata)
    }

    static func offer(_ picker: V4L2BracketPicker, _ level: UInt8, at time: Int64) {
        let (buffer, metadata) = frame(level, at: time)
        picker.offer(buffer, metadata)
    }

    /// The frame after the write that still looks like before is passed over; the first
    /// that changed is the still once the next one shows it settled.
    @Test func picksTheFirstFrameShowingTheNewExposureOnceSettled() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 100, at: 1)
        picker.arm(at: 10)
        Self.offer(picker, 100, at: 5)  // stamped before the write: a new baseline
        Self.offer(picker, 101, at: 11)  // after, within the threshold: the old exposure
        Self.offer(picker, 160, at: 12)  // changed
        Self.offer(picker, 161, at: 13)  // settled: 12 is the still
        let pick = try #require(picker.wait(seconds: 0))
        #expect(pick.detected)
        #expect(pick.metadata.presentationTime.value == 12)
        #expect(abs(pick.mean - 160) < 0.5 && pick.baseline.map { abs($0 - 100) < 0.5 } == true)
    }

    /// A frame caught while the sensor switched (half way) is replaced by the next one.
    @Test func aFrameStillMovingIsNotTheStill() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 100, at: 1)
        picker.arm(at: 10)
        Self.offer(picker, 130, at: 11)
        Self.offer(picker, 160, at: 12)
        Self.offer(picker, 160, at: 13)
        let pick = try #require(picker.wait(seconds: 0))
        #expect(pick.detected && pick.metadata.presentationTime.value == 12)
    }

    /// A picture the exposure does not change (vivid's gain): after `patience` frames the
    /// first frame stamped after the write, marked as not seen to change.
    @Test func aPictureThatNeverChangesGivesTheFirstFrameAfterTheWrite() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 90, at: 1)
        picker.arm(at: 10)
        #expect(picker.wait(seconds: 0) == nil)
        for index in 0..<V4L2BracketPicker.patience { Self.offer(picker, 90, at: 11 + Int64(index)) }
        let pick = try #require(picker.wait(seconds: 0))
        #expect(!pick.detected)
        #expect(pick.metadata.presentationTime.value == 11)
    }

    /// A sensor streaming 160x120 frames 1/30 s apart whose picture takes each exposure
    /// write `latency` frames after it, with noise: every pixel ±12 levels and the whole
    /// frame ±1 (flicker), from a fixed-seed generator.
    struct NoisySensor {
        var level: Double
        var latency: Int
        var pending: [(frame: Int, level: Double)] = []
        var frame = 0
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        static let interval: Int64 = 33_333_333

        init(level: Double, latency: Int) {
            self.level = level
            self.latency = latency
        }

        mutating func random(_ spread: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % (2 * spread + 1) - spread
        }

        /// A control write now: the picture shows `level` from `latency` frames on.
        mutating func write(_ level: Double) { pending.append((frame + latency, level)) }

        /// The stamp the next frame will carry.
        var nextStamp: Int64 { Int64(frame + 1) * Self.interval }

        /// The next frame, its noiseless level and its stamp.
        mutating func next() -> (CVBuffer, FrameMetadata, level: Double) {
            while let first = pending.first, first.frame <= frame {
                level = first.level
                pending.removeFirst()
            }
            let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 160, height: 120)
            CVPixelBufferLockBaseAddress(buffer, [])
            let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
            let rowBytes = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
            let flicker = random(1)
            for y in 0..<120 {
                for x in 0..<160 { luma[y * rowBytes + x] = UInt8(clamping: Int(level) + flicker + random(12)) }
            }
            CVPixelBufferUnlockBaseAddress(buffer, [])
            frame += 1
            var metadata = FrameMetadata()
            metadata.presentationTime = CMTime(value: Int64(frame) * Self.interval, timescale: 1_000_000_000)
            return (buffer, metadata, level)
        }
    }

    /// A bracket as `V4L2Camera+Brackets.swift` runs it, on a sensor that shows each
    /// exposure 2 frames after its write: per still a new picker takes a baseline frame,
    /// the controls are written and the picker armed, frames flow until it picks, the
    /// stream's exposure is written back (and the next still's right after it). Returns each
    /// pick with the stamp of the first frame that showed the still's exposure.
    static func runBracket(_ levels: [Double], on sensor: inout NoisySensor, normal: Double) throws -> [(V4L2BracketPicker.Pick, Int64?)] {
        var results: [(V4L2BracketPicker.Pick, Int64?)] = []
        for level in levels {
            let picker = V4L2BracketPicker()
            let (buffer, metadata, _) = sensor.next()
            picker.offer(buffer, metadata)
            try #require(picker.waitForBaseline(seconds: 0))
            sensor.write(level)
            picker.arm(at: sensor.nextStamp - 1)
            var firstShown: Int64?
            var pick: V4L2BracketPicker.Pick?
            for _ in 0..<20 where pick == nil {
                let (buffer, metadata, shown) = sensor.next()
                if firstShown == nil, shown == level { firstShown = metadata.presentationTime.value }
                picker.offer(buffer, metadata)
                pick = picker.wait(seconds: 0)
            }
            results.append((try #require(pick), firstShown))
            sensor.write(normal)
        }
        return results
    }

    /// Exposures that change the picture (−2 EV, +1 EV, 0 EV around a mean of 100): each
    /// still is the first frame showing its exposure, though it came two frames after the
    /// write, the previous still's picture was still showing and the written-back exposure
    /// showed for a frame in between.
    @Test func picksTheFirstSteppedFrameOfEachExposureInNoise() throws {
        var sensor = NoisySensor(level: 100, latency: 2)
        for _ in 0..<3 { _ = sensor.next() }
        let picks = try Self.runBracket([25, 200, 100], on: &sensor, normal: 100)
        for (index, (pick, firstShown)) in picks.enumerated() {
            let shown = try #require(firstShown, "still \(index): the exposure never showed")
            #expect(pick.metadata.presentationTime.value == shown, "still \(index)")
            #expect(abs(pick.mean - [25, 200, 100][index]) < 2, "still \(index): mean \(pick.mean)")
        }
        #expect(picks[0].0.detected && picks[1].0.detected)
    }

    /// A picture the controls do not change (vivid's gain), in the same noise: each still is
    /// the first frame stamped after its write, marked undetected.
    @Test func aBracketThatNeverShowsFallsBackToTheFirstFrameAfterEachWrite() throws {
        var sensor = NoisySensor(level: 100, latency: 2)
        for _ in 0..<3 { _ = sensor.next() }
        let before = sensor.frame
        let picks = try Self.runBracket([100, 100, 100], on: &sensor, normal: 100)
        var expectedFrame = before + 2  // the baseline frame, then the first after the write
        for (pick, _) in picks {
            #expect(!pick.detected)
            #expect(pick.metadata.presentationTime.value == Int64(expectedFrame) * NoisySensor.interval)
            expectedFrame += 1 + V4L2BracketPicker.patience  // this still's frames, the next baseline, its first
        }
    }
}
